/**
 * The symbol `await using` calls.
 *
 * @module
 */

/** `Symbol.asyncDispose`, or the well-known stand-in older runtimes' `await using` transpilers use. */
export const asyncDispose: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ??
  (Symbol.for("Symbol.asyncDispose") as typeof Symbol.asyncDispose);
