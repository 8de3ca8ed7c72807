/**
 * A copy of an SdkError with more facts: errors are immutable once made, so adding what a later layer
 * knows (how many attempts were made) makes a new error of the same kind, keeping the cause.
 *
 * @module
 */

import { type AnySdkError, type SdkErrorFields, sdkErrorFromJSON } from "./sdk-error.ts";

/** `error` again, with `extra` fields and `suffix` appended to its message; its cause is the same value. */
export function withFields(
  error: AnySdkError,
  extra: Omit<Partial<SdkErrorFields>, "cause">,
  suffix: string,
): AnySdkError {
  const json = { ...error.toJSON(), ...extra, message: error.message + suffix, cause: error.cause };
  const copy = sdkErrorFromJSON(json as never);
  if (error.stack !== undefined) copy.stack = error.stack;
  return copy;
}
