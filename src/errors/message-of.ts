/**
 * The message of anything thrown: an Error's message, or the value as text.
 *
 * @module
 */

/** `error.message` for an Error, `String(error)` for anything else. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
