/**
 * The lines of a read transcript, kept in `state.metadata.transcript` so that writing the session
 * back in its own format reproduces them exactly and appends only what the session added after.
 *
 * @module
 */

import type { SessionState } from "../session/session-state.ts";
import type { JsonObject, JsonValue, Message } from "../types.ts";
import type { TranscriptFormat } from "./transcript-types.ts";

/** The `metadata` key a read transcript's lines are kept under. */
export const TRANSCRIPT_KEY = "transcript";

/** A read transcript's lines and where the session's messages came from in them. */
export interface TranscriptSource {
  /** The format the lines are in. */
  format: TranscriptFormat;
  /** Every line of the file that was a JSON object, in file order. */
  lines: JsonObject[];
  /** For each message read from the file, in order: its id and the index in `lines` of its last line. */
  messages: [id: string, lastLine: number][];
}

/** What a writer needs to continue a kept transcript: its lines, the line to continue from, and what is new. */
export interface Continuation {
  lines: JsonObject[];
  /** Index in `lines` of the line the first new message follows, or -1 to start a new conversation. */
  after: number;
  /** The state's messages that are not in `lines`. */
  added: Message[];
  /** How many of the file's messages the state still begins with. */
  kept: number;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The kept lines of `state` when they are in `format` (and look it) and are well formed, else undefined. */
export function keptSource(state: SessionState, format: TranscriptFormat): TranscriptSource | undefined {
  const source: unknown = state.metadata[TRANSCRIPT_KEY];
  if (!isObject(source) || source.format !== format) return undefined;
  const { lines, messages } = source;
  if (!Array.isArray(lines) || !lines.every(isObject) || !Array.isArray(messages)) return undefined;
  // A pi file starts with its session header; a Claude Code file has none.
  if ((lines[0]?.type === "session") !== (format === "pi")) return undefined;
  const wellFormed = messages.every(
    (entry) =>
      Array.isArray(entry) &&
      typeof entry[0] === "string" &&
      Number.isInteger(entry[1]) &&
      (entry[1] as number) >= 0 &&
      (entry[1] as number) < lines.length,
  );
  return wellFormed ? (source as unknown as TranscriptSource) : undefined;
}

/**
 * How to write `state` over its kept lines: all of them as they were, then the messages after the
 * longest run of leading messages that still are the file's. A session that dropped or replaced a
 * read message continues from the last one it kept, as a new branch where the format has branches.
 */
export function continuation(state: SessionState, source: TranscriptSource): Continuation {
  let kept = 0;
  while (
    kept < source.messages.length &&
    kept < state.messages.length &&
    state.messages[kept]?.id === source.messages[kept]?.[0]
  )
    kept++;
  return {
    lines: source.lines,
    after: kept === 0 ? -1 : (source.messages[kept - 1]?.[1] ?? -1),
    added: state.messages.slice(kept),
    kept,
  };
}

/**
 * The working directory of the file `state` was read from (a Claude Code line's or the pi header's
 * `cwd`), so a session written anew or into the other format stays listed under its project.
 */
export function workingDirectory(state: SessionState): string | undefined {
  const source = keptSource(state, "claude-code") ?? keptSource(state, "pi");
  const cwd = source?.lines.find((line) => typeof line.cwd === "string")?.cwd;
  return typeof cwd === "string" ? cwd : undefined;
}

/** `metadata` with `source` under {@link TRANSCRIPT_KEY}. */
export function withSource(metadata: JsonObject, source: TranscriptSource): JsonObject {
  return { ...metadata, [TRANSCRIPT_KEY]: source as unknown as JsonValue };
}
