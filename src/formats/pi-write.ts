/**
 * `toPi`: a Wisp session as a pi session file.
 *
 * @module
 */

import type { SessionState } from "../session/session-state.ts";
import { piWriter } from "./pi-writer.ts";
import { continuation, keptSource } from "./transcript-source.ts";

/** Options for {@link toPi}. */
export interface ToPiOptions {
  /** The working directory written in the header (default `/`); pi lists sessions per directory. */
  cwd?: string;
  /**
   * Reproduce the lines of the pi file the session was read from (default true) and append only what
   * came after, in that file's version; false writes a new version 3 file.
   */
  keepSource?: boolean;
}

/**
 * The session as a pi session file (version 3 JSONL), ready to save under
 * `~/.pi/agent/sessions/<directory>/` and resume with `pi --resume`. A session read by `fromPi` writes
 * back its file's lines unchanged, followed by what the session added (a version 1 file stays
 * version 1). Content pi has no form for (other providers' server-side blocks) is left out, and only
 * Anthropic thinking keeps its signature.
 *
 * @example
 * ```ts no-run
 * import { toPi } from "wisp-agent/formats";
 *
 * const jsonl = toPi(await session.export(), { cwd: "/home/me/project" });
 * ```
 */
export function toPi(state: SessionState, options: ToPiOptions = {}): string {
  const source = options.keepSource === false ? undefined : keptSource(state, "pi");
  if (source === undefined) {
    const writer = piWriter({
      sessionId: state.sessionId,
      createdAt: state.createdAt,
      provider: state.provider,
      model: state.model,
      ...(state.thinking ? { thinking: state.thinking } : {}),
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
    for (const message of state.messages) writer.append(message);
    return writer.close();
  }
  const plan = continuation(state, source);
  const header = plan.lines[0];
  const version = typeof header?.version === "number" ? header.version : 1;
  const last = plan.lines[plan.after];
  const writer = piWriter({
    sessionId: typeof header?.id === "string" ? header.id : state.sessionId,
    cursor: { version, parentId: typeof last?.id === "string" ? last.id : null },
    takenIds: plan.lines.flatMap((line) => (typeof line.id === "string" ? [line.id] : [])),
  });
  for (const message of plan.added) writer.append(message);
  return `${plan.lines.map((line) => JSON.stringify(line)).join("\n")}\n${writer.close()}`;
}
