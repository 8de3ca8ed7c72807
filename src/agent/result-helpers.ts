/**
 * Small helpers for Wisp's `Result`, for code that would rather not write `if (result.ok)` at every
 * step. Each is a plain function (a bundle keeps only those it uses). A failure keeps its `partial`
 * through `map`, `mapErr` and `andThen`: what a failed run did is never dropped by a helper.
 *
 * @example
 * ```ts
 * import { andThen, map, runAgent, unwrapOr } from "wisp-agent";
 *
 * const result = await runAgent({ model: "anthropic/claude-sonnet-4-5", apiKey, prompt: "Name a pelican" });
 * const words = map(result, (value) => value.text.split(/\s+/).length);
 * console.log(unwrapOr(words, 0));
 * ```
 *
 * @module
 */

import type { AnySdkError } from "../errors/sdk-error.ts";
import { toSdkError } from "../errors/to-sdk-error.ts";
import type { Err, Ok, Result } from "./result.ts";

/** A success holding `value`. */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

/** A failure holding `error`, and what was done before it failed (`partial`, default undefined). */
export function err<E, P = undefined>(error: E, partial?: P): Err<P, E> {
  return { ok: false, error, partial: partial as P };
}

/** True for a success (narrows the type). */
export function isOk<T, E, P>(result: Result<T, E, P>): result is Ok<T> {
  return result.ok;
}

/** True for a failure (narrows the type). */
export function isErr<T, E, P>(result: Result<T, E, P>): result is Err<P, E> {
  return !result.ok;
}

/** Transforms the value of a success; a failure passes through with its error and partial. */
export function map<T, E, P, U>(result: Result<T, E, P>, transform: (value: T) => U): Result<U, E, P> {
  return result.ok ? ok(transform(result.value)) : result;
}

/** Transforms the error of a failure (keeping its partial); a success passes through. */
export function mapErr<T, E, P, F>(result: Result<T, E, P>, transform: (error: E) => F): Result<T, F, P> {
  return result.ok ? result : { ok: false, error: transform(result.error), partial: result.partial };
}

/** Chains a step that can fail: runs it on a success's value; a failure passes through. */
export function andThen<T, E, P, U, E2, P2>(
  result: Result<T, E, P>,
  next: (value: T) => Result<U, E2, P2>,
): Result<U, E | E2, P | P2> {
  return result.ok ? next(result.value) : result;
}

/** The value of a success; for a failure, throws its error (an SdkError for Wisp's own results). */
export function unwrap<T, E, P>(result: Result<T, E, P>): T {
  if (result.ok) return result.value;
  throw result.error;
}

/** The value of a success, or `fallback` for a failure. */
export function unwrapOr<T, E, P, U>(result: Result<T, E, P>, fallback: U): T | U {
  return result.ok ? result.value : fallback;
}

/** All values when every result succeeded, else the first failure (as it was). */
export function all<T, E, P>(results: ReadonlyArray<Result<T, E, P>>): Result<T[], E, P> {
  const values: T[] = [];
  for (const result of results) {
    if (!result.ok) return result;
    values.push(result.value);
  }
  return ok(values);
}

/** What `tryCatch` returns: a Result, or a promise of one when `run` is async. */
export type TryCatchResult<R, E> = 0 extends 1 & R
  ? Result<R, E, undefined> // R is any (JSON.parse): a plain Result, not both shapes at once
  : [R] extends [never]
    ? Result<never, E, undefined>
    : [R] extends [PromiseLike<infer T>]
      ? Promise<Result<T, E, undefined>>
      : Result<R, E, undefined>;

/**
 * Runs code that may throw (or reject) and returns a Result instead. What was thrown becomes an
 * SdkError: an SdkError as it is, anything else an `UNKNOWN` RequestError with it as `cause`, unless
 * `toError` says otherwise.
 */
export function tryCatch<R, E = AnySdkError>(
  run: () => R,
  toError: (thrown: unknown) => E = (thrown) => toSdkError(thrown) as E,
): TryCatchResult<R, E> {
  const fail = (thrown: unknown) => err(toError(thrown));
  try {
    const value = run();
    if (typeof (value as { then?: unknown } | null | undefined)?.then === "function") {
      return Promise.resolve(value).then(ok, fail) as TryCatchResult<R, E>;
    }
    return ok(value) as TryCatchResult<R, E>;
  } catch (thrown) {
    return fail(thrown) as TryCatchResult<R, E>;
  }
}
