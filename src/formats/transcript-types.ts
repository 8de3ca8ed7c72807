/**
 * What reading another runtime's transcript gives back: a Wisp session state, the branches the file
 * holds, and a warning for every line that could not be used as it was.
 *
 * @module
 */

import type { Result } from "../agent/result.ts";
import type { ConfigError, ParseError } from "../errors/sdk-error.ts";
import type { SessionState } from "../session/session-state.ts";

/** The transcript formats `wisp-agent/formats` reads and writes. */
export type TranscriptFormat = "claude-code" | "pi";

/** A line that was skipped or repaired, by its 1-based number in the file. */
export interface TranscriptWarning {
  /** The line's 1-based number in the file. */
  line: number;
  /** What was wrong with it and what was done (skipped, or how it was repaired). */
  message: string;
}

/** A conversation the file holds besides the one read: pass its `leaf` to read it instead. */
export interface TranscriptBranch {
  /** The id of its last line (`uuid` in Claude Code, the entry `id` in pi). */
  leaf: string;
  /** The 1-based line number of its last line. */
  line: number;
  /** True for a Claude Code subagent's lines (`isSidechain`). */
  sidechain: boolean;
  /** The subagent's id, for a sidechain. */
  agentId?: string;
}

/** A transcript read into Wisp: a valid SessionState holding the active branch. */
export interface ImportedTranscript {
  /** Passes `parseSessionState`; give it to `createAgentSession({ restore: state })`. */
  state: SessionState;
  /** The format the file was read as. */
  format: TranscriptFormat;
  /** The id of the line the conversation was read back from. */
  leaf: string;
  /** Every other leaf in the file (rewinds, abandoned branches, subagents), oldest first. */
  branches: TranscriptBranch[];
  /** Lines skipped or repaired, with why. Empty for a clean file. */
  warnings: TranscriptWarning[];
}

/** Options for `fromClaudeCode` and `fromPi`. */
export interface ReadTranscriptOptions {
  /** Read the conversation ending at this line id instead of the active one (see `branches`). */
  leaf?: string;
  /**
   * Keep the file's lines in `state.metadata.transcript` (default true), so that writing the session
   * back in the same format reproduces them exactly and only appends what came after. Without them a
   * write makes new lines for the whole conversation, and reading a large Claude Code file holds only
   * what the conversation since its last compaction needs (memory bounded by that, not by the file).
   */
  keepSource?: boolean;
  /**
   * The model to continue with when the file names none (a transcript with no assistant reply yet):
   * `"provider/model"` as `createAgentSession` takes it (`"openai/gpt-5.1"`), or a bare model id, which
   * is Anthropic's (Claude Code) or the pi header's provider's. Without it, `claude-sonnet-4-5` on Anthropic.
   */
  model?: string;
}

/** The outcome of reading a transcript: the import, or a typed error with the warnings so far. */
export type ReadTranscriptResult = Result<
  ImportedTranscript,
  ParseError | ConfigError,
  {
    /** The warnings for the lines read before the failure. */
    warnings: TranscriptWarning[];
  }
>;
