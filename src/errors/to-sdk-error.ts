/**
 * `toSdkError`: anything thrown, as the typed error it means. For tool authors and app code that
 * catch what `fetch`, a client library or their own code threw and want Wisp's `code` and
 * `retryable` for it.
 *
 * @module
 */

import { classifyThrown } from "./classify.ts";
import type { AnySdkError } from "./sdk-error.ts";

/**
 * Turns anything thrown into the SdkError it means; never throws. A Wisp error comes back as it is
 * (with its `retryable` taken from its code when it was made without one). Otherwise the value and
 * its whole `cause` chain are read, strongest signal first:
 *
 * - a `TimeoutError` (what `AbortSignal.timeout` gives) → RequestError `TIMEOUT`, retryable;
 * - an `AbortError` → AbortError `ABORTED`, not retryable (with no signal to compare against, an abort
 *   is taken as the caller's; `classifyThrown(error, { signal })` tells the fetch's own timeout apart);
 * - a runtime code (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`, … → `NETWORK`; `ETIMEDOUT`, undici's
 *   timeouts → `TIMEOUT`) or a runtime's network message (`fetch failed`, `Failed to fetch`, `Load failed`,
 *   workerd's `Network connection lost.`, …) → RequestError, retryable;
 * - well-known words: "request timed out" → `TIMEOUT`, "connection refused" / "socket hang up" →
 *   `NETWORK`, "rate limit" → `RATE_LIMITED`, "overloaded" → `OVERLOADED`, "context length" →
 *   `CONTEXT_LENGTH`;
 * - anything else → RequestError `UNKNOWN`, not retryable, the value kept as `cause`.
 *
 * @example
 * ```ts
 * import { toSdkError } from "wisp-agent";
 *
 * try {
 *   await fetch("https://example.com/search", { signal: AbortSignal.timeout(5_000) });
 * } catch (thrown) {
 *   const error = toSdkError(thrown); // RequestError TIMEOUT, retryable: true
 *   if (error.retryable) console.log(`${error.code}: try again later`);
 * }
 * ```
 */
export function toSdkError(value: unknown): AnySdkError {
  return classifyThrown(value, {});
}
