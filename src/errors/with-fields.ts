/**
 * A copy of an SdkError with more facts: errors are immutable once made, so adding what a later layer
 * knows (how many attempts were made) makes a new error of the same kind, keeping the cause.
 *
 * @module
 */

import { type AnySdkError, type SdkErrorFields, sdkErrorFromJSON } from "./sdk-error.ts";

/** `error` again, with `extra` fields and `suffix` appended to its message. */
export function withFields(error: AnySdkError, extra: Partial<SdkErrorFields>, suffix = ""): AnySdkError {
  const copy = sdkErrorFromJSON({ ...error.toJSON(), ...extra, message: error.message + suffix } as never);
  if (error.cause !== undefined)
    Object.defineProperty(copy, "cause", { value: error.cause, configurable: true, writable: true });
  if (error.stack !== undefined) copy.stack = error.stack;
  return copy;
}
