/**
 * The failure of a transcript read: a typed error with the warnings gathered so far.
 *
 * @module
 */

import { ConfigError, ParseError } from "../errors/sdk-error.ts";
import type { ReadTranscriptResult, TranscriptWarning } from "./transcript-types.ts";

/** A read that found nothing Wisp can use: ParseError `TRANSCRIPT_INVALID`, with `details.line` when known. */
export function unreadable(
  message: string,
  warnings: TranscriptWarning[],
  line?: number,
  cause?: unknown,
): ReadTranscriptResult {
  return {
    ok: false,
    error: new ParseError(message, {
      code: "TRANSCRIPT_INVALID",
      ...(line !== undefined ? { details: { line } } : {}),
      ...(cause !== undefined ? { cause } : {}),
    }),
    partial: { warnings },
  };
}

/**
 * The failure of a read that kept no line: an empty input, or one whose every line was skipped (a
 * pretty-printed JSON file, a Wisp SessionState, binary data), each line named in the warnings.
 */
export function noLines(warnings: TranscriptWarning[]): ReadTranscriptResult {
  return unreadable(
    warnings.length === 0
      ? "The transcript is empty"
      : `${warnings.length === 1 ? "The transcript's one line is not" : `None of the transcript's ${warnings.length} lines is`} a JSON object (the warnings say why): it is not JSONL. A Wisp SessionState is restored with parseSessionState`,
    warnings,
    warnings[0]?.line,
  );
}

/** A read whose stream failed: the stream's own error is the cause, and its message is given. */
export function failedRead(cause: unknown, warnings: TranscriptWarning[]): ReadTranscriptResult {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return unreadable(`The transcript could not be read: ${reason}`, warnings, undefined, cause);
}

/** A `leaf` option that names no line of the file: ConfigError `CONFIG_INVALID` at path `leaf`. */
export function unknownLeaf(leaf: string, warnings: TranscriptWarning[]): ReadTranscriptResult {
  return {
    ok: false,
    error: new ConfigError(`No line of the transcript has the id ${JSON.stringify(leaf)} (option leaf)`, {
      code: "CONFIG_INVALID",
      path: "leaf",
    }),
    partial: { warnings },
  };
}
