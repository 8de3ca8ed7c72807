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
