/**
 * When and how long to wait before another attempt: only retryable errors, exponential backoff with
 * full jitter, and the server's own wait (`retry-after-ms`, `retry-after`, Gemini's `retryDelay`)
 * when it gave one — unless that wait is longer than the cap, in which case Wisp does not retry and
 * reports the error with its `retryAfterMs` so the caller can decide.
 *
 * @module
 */

import type { AnySdkError } from "../errors/sdk-error.ts";

/** Retry settings. `maxRetries: 0` turns retries off. */
export interface RetryOptions {
  /** Attempts after the first (default 2). */
  maxRetries?: number;
  /** The first backoff wait before jitter (default 500 ms). */
  initialDelayMs?: number;
  /** The longest backoff wait (default 8 s). */
  maxDelayMs?: number;
  /** The longest server-requested wait Wisp honours (default 60 s); longer ones end the retries. */
  maxRetryAfterMs?: number;
}

/** Retry settings with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** The defaults, as the official SDKs use them. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Fills in defaults. */
export function retryPolicy(options: RetryOptions | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY, ...options };
}

/**
 * The wait before retry number `attempt` (0-based), or undefined when the error must not be retried.
 * `random` is injectable for tests.
 */
export function retryDelay(
  error: AnySdkError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (!error.retryable || attempt >= policy.maxRetries) return undefined;
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  // Jitter in [ceiling/2, ceiling]: spread clients apart without collapsing the wait to zero.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * What to add to the message of an error that was not retried only because the server's wait is longer
 * than `maxRetryAfterMs`, so the reader sees why; `""` for any other error.
 */
export function waitNotTaken(error: AnySdkError, attempt: number, policy: RetryPolicy): string {
  const wait = error.retryAfterMs;
  if (
    !error.retryable ||
    attempt >= policy.maxRetries ||
    wait === undefined ||
    wait <= policy.maxRetryAfterMs
  )
    return "";
  return ` — not retried: the server asked to wait ${wait / 1000} s (retry.maxRetryAfterMs: ${policy.maxRetryAfterMs / 1000} s)`;
}
