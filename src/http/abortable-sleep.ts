/**
 * A sleep that ends at once when its signal aborts, leaving no timer behind.
 *
 * @module
 */

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts (at once if it already has). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
