/**
 * The message of anything thrown, never throwing itself: code may throw `Object.create(null)`, a
 * value whose `toString` or `message` getter throws, a revoked Proxy. A failure must still become a
 * typed error with a readable message, so every step here is guarded.
 *
 * @module
 */

/** What a value that cannot be shown at all becomes. */
const UNPRINTABLE = "(a thrown value that cannot be shown)";

/** Text for any value: `String(value)`, else its `[object Tag]`, else a fixed placeholder. */
export function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return UNPRINTABLE;
    }
  }
}

/** `error.message` for an Error, text for anything else; never throws. */
export function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return describeValue(error.message);
  } catch {
    // an Error-like value whose `message` getter (or prototype chain) throws
  }
  return describeValue(error);
}
