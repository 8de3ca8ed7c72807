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
  // Anthropic (`sk-ant-…`), OpenAI and compatible (`sk-…`), Google (`AIza…`), not inside a longer word.
  /(?<![A-Za-z0-9])(?:sk-ant-[\w-]{8,}|sk-[\w-]{16,}|AIza[\w-]{20,})/g,
  // A URL's userinfo: a password, or a token given as the user name (`https://ghp_…@github.com`).
  /(?<=\/\/)[^/\s@]+(?=@)/g,
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

/** `error`, or a copy of it whose message, request URL and cause chain hold no secret. */
export function redactError(error: AnySdkError, secrets: readonly string[]): AnySdkError {
  const json = error.toJSON();
  const message = redactText(json.message, secrets);
  const cause = json.cause === undefined ? undefined : redactCause(json.cause, secrets);
  const request =
    json.request === undefined ? undefined : { ...json.request, url: redactText(json.request.url, secrets) };
  if (
    message === json.message &&
    request?.url === json.request?.url &&
    JSON.stringify(cause) === JSON.stringify(json.cause)
  )
    return error;
  const clean = sdkErrorFromJSON({
    ...json,
    message,
    ...(cause === undefined ? {} : { cause }),
    ...(request === undefined ? {} : { request }),
  });
  if (error.stack !== undefined) clean.stack = redactText(error.stack, secrets);
  return clean;
}
