/**
 * `toClaudeCode`: a Wisp session as a Claude Code transcript.
 *
 * @module
 */

import type { SessionState } from "../session/session-state.ts";
import type { JsonObject } from "../types.ts";
import { claudeCodeWriter } from "./claude-code-writer.ts";
import { continuation, keptSource, workingDirectory } from "./transcript-source.ts";
import { checkedState } from "./writer-input.ts";

/** Options for {@link toClaudeCode}. */
export interface ToClaudeCodeOptions {
  /**
   * The working directory new lines carry (default: the one of the file the session was read from,
   * else `/`); Claude Code lists sessions per project.
   */
  cwd?: string;
  /** The Claude Code version the lines claim (default `2.1.39`). */
  version?: string;
  /**
   * The git branch new lines claim (default empty, as Claude Code writes outside a repository); continuing a
   * read file keeps its lines' branch.
   */
  gitBranch?: string;
  /**
   * Reproduce the lines of the Claude Code file the session was read from (default true) and append
   * only what came after; false writes every message anew.
   */
  keepSource?: boolean;
}

/** The envelope fields of a Claude Code line (everything that is not the line's own content). */
const ENVELOPE = ["isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch", "agentId", "slug"];

function envelopeOf(line: JsonObject | undefined): JsonObject | undefined {
  if (line?.sessionId === undefined) return undefined;
  return Object.fromEntries(ENVELOPE.filter((key) => key in line).map((key) => [key, line[key] ?? null]));
}

/**
 * The session as Claude Code JSONL, ready to save as `~/.claude/projects/<project>/<sessionId>.jsonl`
 * and resume with `claude --resume`. A session read by `fromClaudeCode` writes back its file's lines
 * unchanged, followed by what the session added. Thinking from other providers becomes text in
 * `<thinking>` markers (Claude Code would send a foreign signature to Anthropic and fail); content
 * that only another provider understands is left out.
 *
 * @example
 * ```ts no-run
 * import { toClaudeCode } from "wisp-agent/formats";
 *
 * const jsonl = toClaudeCode(session.export(), { cwd: "/home/me/project" });
 * ```
 */
export function toClaudeCode(input: SessionState, options: ToClaudeCodeOptions = {}): string {
  const state = checkedState(input);
  const source = options.keepSource === false ? undefined : keptSource(state, "claude-code");
  if (source === undefined) {
    const cwd = options.cwd ?? workingDirectory(state);
    const writer = claudeCodeWriter({
      sessionId: state.sessionId,
      ...options,
      ...(cwd !== undefined ? { cwd } : {}),
    });
    for (const message of state.messages) writer.append(message);
    return writer.close();
  }
  const plan = continuation(state, source);
  const last = plan.lines[plan.after];
  const template =
    envelopeOf(last) ?? envelopeOf(plan.lines.findLast((line) => line.sessionId !== undefined));
  const writer = claudeCodeWriter({
    sessionId: typeof template?.sessionId === "string" ? template.sessionId : state.sessionId,
    ...options,
    ...(template ? { envelope: template } : {}),
    cursor: { parentUuid: typeof last?.uuid === "string" ? last.uuid : null, calls: {} },
  });
  for (const message of plan.added) writer.append(message);
  const kept = plan.lines.map((line) => JSON.stringify(line)).join("\n");
  return (kept === "" ? "" : `${kept}\n`) + writer.close();
}
