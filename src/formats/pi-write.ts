/**
 * `toPi`: a Wisp session as a pi session file.
 *
 * @module
 */

import type { SessionState } from "../session/session-state.ts";
import { piWriter } from "./pi-writer.ts";
import {
  type Continuation,
  continuation,
  keptSource,
  type TranscriptSource,
  workingDirectory,
} from "./transcript-source.ts";
import { checkedState } from "./writer-input.ts";

/** Options for {@link toPi}. */
export interface ToPiOptions {
  /**
   * The working directory written in a new header (default: the one of the file the session was read
   * from, else `/`); pi lists sessions per directory.
   */
  cwd?: string;
  /**
   * Reproduce the lines of the pi file the session was read from (default true) and append only what
   * came after, in that file's version; false writes a new version 3 file.
   */
  keepSource?: boolean;
}

/** The pi version of the kept file (1 when its header names none). */
function versionOf(plan: Continuation): number {
  const version = plan.lines[0]?.version;
  return typeof version === "number" ? version : 1;
}

/**
 * Whether the session can be written as the kept file plus new entries. A version 1 file has no tree
 * (pi reads every entry in it), so a session that dropped or replaced messages it read cannot branch
 * there: it is written anew as version 3, as pi itself migrates version 1 files.
 */
function canContinue(plan: Continuation, source: TranscriptSource): boolean {
  return versionOf(plan) >= 2 || plan.kept === source.messages.length;
}

/**
 * The session as a pi session file (version 3 JSONL), ready to save under
 * `~/.pi/agent/sessions/<directory>/` and resume with `pi --resume`. A session read by `fromPi` writes
 * back its file's lines unchanged, followed by what the session added (a version 1 file stays
 * version 1, unless the session dropped messages it read: version 1 cannot branch, so the file is then
 * written anew as version 3). Content pi has no form for (other providers' server-side blocks) is left out, and only
 * Anthropic thinking keeps its signature.
 *
 * @example
 * ```ts no-run
 * import { toPi } from "wisp-agent/formats";
 *
 * const jsonl = toPi(session.export(), { cwd: "/home/me/project" });
 * ```
 */
export function toPi(input: SessionState, options: ToPiOptions = {}): string {
  const state = checkedState(input);
  const source = options.keepSource === false ? undefined : keptSource(state, "pi");
  const plan = source && continuation(state, source);
  if (source === undefined || plan === undefined || !canContinue(plan, source)) {
    const cwd = options.cwd ?? workingDirectory(state);
    const writer = piWriter({
      sessionId: state.sessionId,
      createdAt: state.createdAt,
      provider: state.provider,
      model: state.model,
      ...(state.thinking ? { thinking: state.thinking } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
    });
    for (const message of state.messages) writer.append(message);
    return writer.close();
  }
  const version = versionOf(plan);
  const last = plan.lines[plan.after];
  const header = plan.lines[0];
  const writer = piWriter({
    sessionId: typeof header?.id === "string" ? header.id : state.sessionId,
    cursor: { version, parentId: typeof last?.id === "string" ? last.id : null },
    takenIds: plan.lines.flatMap((line) => (typeof line.id === "string" ? [line.id] : [])),
  });
  for (const message of plan.added) writer.append(message);
  return `${plan.lines.map((line) => JSON.stringify(line)).join("\n")}\n${writer.close()}`;
}
