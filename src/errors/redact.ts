/**
 * Secrets never leave in an error. A provider's error body can echo the API key ("Incorrect API key
 * provided: sk-…"), a runtime's message can quote a URL with credentials; an error reaches logs,
 * browsers and stored sessions, so every message and cause is scrubbed of the caller's own secrets
 * and of anything shaped like a provider key.
 *
 * @module
 */

import { type AnySdkError, type SerializedCause, sdkErrorFromJSON } from "./sdk-error.ts";

/** Shapes of provider keys and URL credentials, redacted even when the caller's key is unknown. */
const SECRET_SHAPES = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-[A-Za-z0-9_-]{16,}/g,
  /AIza[0-9A-Za-z_-]{20,}/g,
  /(?<=\/\/)[^/\s:@]+:[^/\s@]+(?=@)/g,
];

const REDACTED = "[redacted]";

/** `text` with every secret of `secrets` (8 characters or more) and every key-shaped string replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 8) result = result.split(secret).join(REDACTED);
  for (const shape of SECRET_SHAPES) result = result.replace(shape, REDACTED);
  return result;
}

function redactCause(cause: SerializedCause, secrets: readonly string[]): SerializedCause {
  const clean: SerializedCause = { ...cause, message: redactText(cause.message, secrets) };
  if (cause.cause !== undefined) clean.cause = redactCause(cause.cause, secrets);
  return clean;
}

/** `error`, or a copy of it whose message and cause chain hold no secret. */
export function redactError(error: AnySdkError, secrets: readonly string[]): AnySdkError {
  const json = error.toJSON();
  const message = redactText(json.message, secrets);
  const cause = json.cause === undefined ? undefined : redactCause(json.cause, secrets);
  if (message === json.message && JSON.stringify(cause) === JSON.stringify(json.cause)) return error;
  const clean = sdkErrorFromJSON({ ...json, message, ...(cause === undefined ? {} : { cause }) });
  if (error.stack !== undefined) clean.stack = redactText(error.stack, secrets);
  return clean;
}
