/**
 * One signal out of the caller's own and the fiber's, so that either aborts the run.
 *
 * @module
 */

/**
 * A signal that aborts when `fiber` does or `own` does. `own` is the caller's `signal` option: a value
 * that is not an AbortSignal is left for the run's option check to refuse, with `fiber` unused.
 */
export function eitherSignal(own: unknown, fiber: AbortSignal): unknown {
  if (own === undefined) return fiber;
  if (!(own instanceof AbortSignal)) return own;
  return AbortSignal.any([own, fiber]);
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
