/**
 * Layer `modules` (docs/architecture.md): the subpath entries: bridge, effect, formats, mcp, testing.
 *
 * `wisp-agent/formats`: the session transcripts of other agent runtimes — Claude Code's JSONL tree
 * and pi's session files — read into a Wisp SessionState and written back, whole or line by line.
 * Pure functions over text: no file system, so they run in a browser, a Worker, Deno, Bun and Node.
 *
 * @module wisp-agent/formats
 */

export { fromClaudeCode } from "./claude-code-read.ts";
export { type ToClaudeCodeOptions, toClaudeCode } from "./claude-code-write.ts";
export {
  type ClaudeCodeCursor,
  type ClaudeCodeWriterOptions,
  claudeCodeWriter,
} from "./claude-code-writer.ts";
export { MAX_LINE_LENGTH } from "./jsonl-lines.ts";
export { PI_VERSION } from "./pi-messages.ts";
export { fromPi } from "./pi-read.ts";
export { type ToPiOptions, toPi } from "./pi-write.ts";
export { type PiCursor, type PiWriterOptions, piWriter } from "./pi-writer.ts";
export { TRANSCRIPT_KEY, type TranscriptSource } from "./transcript-source.ts";
export type {
  ImportedTranscript,
  ReadTranscriptOptions,
  ReadTranscriptResult,
  TranscriptBranch,
  TranscriptFormat,
  TranscriptWarning,
} from "./transcript-types.ts";
export type { TranscriptWriter } from "./transcript-writer.ts";
