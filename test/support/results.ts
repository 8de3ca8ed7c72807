/**
 * Results in tests: the value of one that must have succeeded, the error of one that must have failed,
 * and the SdkError a promise must reject with.
 */
import { type AnySdkError, isSdkError } from "../../src/errors/sdk-error.ts";
import type { Result } from "../../src/index.ts";

/** The value of `result`; throws its error (failing the test) when it failed. */
export function okValue<T, E, P>(result: Result<T, E, P>): T {
  if (result.ok) return result.value;
  throw result.error;
}

/** The error of `result`; throws (failing the test) when it succeeded. */
export function failure<R extends Result<unknown, unknown, unknown>>(
  result: R,
): Extract<R, { ok: false }>["error"] {
  if (!result.ok) return result.error as Extract<R, { ok: false }>["error"];
  throw new Error("expected a failed Result, got a success");
}

/** The SdkError `promise` rejects with; throws (failing the test) when it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<AnySdkError> {
  try {
    await promise;
  } catch (error) {
    if (isSdkError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection with an SdkError, got a value");
}
