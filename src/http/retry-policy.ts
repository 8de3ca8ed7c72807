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

/** Not to be retried; `why` is what the error's message adds ("" when the error says enough). */
export interface NotRetried {
  why: string;
}

/** An error not retried for what it is (not retryable, output already streamed, an abort). */
export const NOT_RETRIED: NotRetried = { why: "" };

/**
 * The wait before retry number `attempt` (0-based), or {@link NOT_RETRIED} when the error must not be
 * retried — with a `why` when only the server's wait, longer than `maxRetryAfterMs`, stands in the way.
 * `random` is injectable for tests.
 */
export function retryDelay(
  error: AnySdkError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | NotRetried {
  if (!error.retryable || attempt >= policy.maxRetries) return NOT_RETRIED;
  const wait = error.retryAfterMs;
  if (wait !== undefined) {
    if (wait <= policy.maxRetryAfterMs) return wait;
    return {
      why: ` — not retried: the server asked to wait ${wait / 1000} s (retry.maxRetryAfterMs: ${policy.maxRetryAfterMs / 1000} s)`,
    };
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  // Jitter in [ceiling/2, ceiling]: spread clients apart without collapsing the wait to zero.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
