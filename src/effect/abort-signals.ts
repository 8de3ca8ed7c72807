/**
 * One signal out of the caller's own and the fiber's, so that either aborts the run.
 *
 * @module
 */

/** An AbortSignal by its shape: one from another realm (an iframe) or a polyfill fails `instanceof`. */
function isSignalLike(value: unknown): value is AbortSignal {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as AbortSignal).aborted === "boolean" &&
    typeof (value as AbortSignal).addEventListener === "function"
  );
}

/**
 * A signal that aborts when `fiber` does or `own` does. `own` is the caller's `signal` option: a value
 * that is not an AbortSignal is left for the run's option check to refuse, with `fiber` unused. A
 * signal from another realm is linked by hand, as `AbortSignal.any` takes this realm's only.
 */
function eitherSignal(own: unknown, fiber: AbortSignal): unknown {
  if (own === undefined) return fiber;
  if (!isSignalLike(own)) return own;
  if (own instanceof AbortSignal) return AbortSignal.any([own, fiber]);
  const linked = new AbortController();
  for (const signal of [own, fiber]) {
    if (signal.aborted) linked.abort(signal.reason);
    else signal.addEventListener("abort", () => linked.abort(signal.reason), { once: true });
  }
  return linked.signal;
}

/**
 * `options` with its `signal` replaced by {@link eitherSignal}. Anything but an object is returned
 * unchanged, so the run refuses it exactly as the Promise API does.
 */
export function withFiberSignal<O>(options: O, fiber: AbortSignal): O {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return options;
  const own = (options as { signal?: unknown }).signal;
  return { ...options, signal: eitherSignal(own, fiber) };
}
