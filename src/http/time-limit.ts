/**
 * A time limit that leaves no timer behind. `AbortSignal.timeout` keeps its timer until it fires: in a
 * Cloudflare Worker or Durable Object that keeps the request that made it alive (and billed, and not
 * evictable) for the whole limit, even when the work ended in a millisecond.
 *
 * @module
 */

/**
 * Runs `work` with a signal that aborts (a `TimeoutError` DOMException) after `ms`, or when `signal`
 * aborts; the timer is cleared as soon as `work` settles. `timedOut()` says whether the limit fired.
 */
export async function withTimeLimit<T>(
  ms: number,
  work: (signal: AbortSignal, timedOut: () => boolean) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort(new DOMException(`The operation timed out after ${ms} ms`, "TimeoutError"));
  }, ms);
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort);
  try {
    return await work(controller.signal, () => fired);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
