/**
 * What a custom `fetch` resolved to, checked before it is read: a wrapper that forgets to return the
 * response (`async (input, init) => { await fetch(input, init) }`) resolves to undefined, and reading
 * it would fail with "Cannot read properties of undefined (reading 'get')", which names neither the
 * option nor the fix.
 *
 * @module
 */

import { ConfigError, type FailedRequest, type SdkErrorFields } from "./sdk-error.ts";

/** Where the fetch was called: the provider and the request, for the error's fields and message. */
export interface FetchResultContext {
  provider?: string | undefined;
  request?: FailedRequest | undefined;
}

/** What `value` is instead of a Response, or undefined when it has what a Response has. */
function notResponse(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return value == null ? String(value) : `a ${typeof value}`;
  try {
    const { status, headers, body } = value as Record<string, { get?: unknown; getReader?: unknown }>;
    if (typeof status === "number" && typeof headers?.get === "function") {
      return body === null || typeof body?.getReader === "function"
        ? undefined
        : "a response whose body is no web stream (a Node stream?)";
    }
  } catch {}
  return "an object without a status and headers";
}

/**
 * `value` when it is a Response (any object with a numeric `status`, a boolean `ok`, `headers` with
 * `get` and a `body` that is null or a ReadableStream, so another realm's Response passes); otherwise
 * throws a ConfigError `CONFIG_INVALID` with path `fetch` saying what the custom fetch gave instead.
 * Not retried: the same fetch would give the same again.
 */
export function checkFetchResult(value: unknown, context: FetchResultContext = {}): Response {
  const missing = notResponse(value);
  if (missing === undefined) return value as Response;
  const where = context.request === undefined ? "" : ` (${context.request.method} ${context.request.url})`;
  const fields: SdkErrorFields = { code: "CONFIG_INVALID", retryable: false, path: "fetch" };
  if (context.provider !== undefined) fields.provider = context.provider;
  if (context.request !== undefined) fields.request = context.request;
  throw new ConfigError(
    `The custom fetch resolved to ${missing} instead of a Response${where}: it must return the response it got, as \`(input, init) => fetch(input, init)\` does`,
    fields,
  );
}
