/**
 * Runs a piece of user code (a tool, a hook) under a deadline and the run's signal. The code gets a
 * signal of its own that aborts on either; the wait ends at once when either fires, even if the code
 * ignores its signal, and no timer or listener is left behind.
 *
 * @module
 */

/** How user code ended. */
export type DeadlineOutcome<T> =
  | { kind: "done"; value: T }
  | { kind: "threw"; error: unknown }
  | { kind: "timeout" }
  | { kind: "aborted" };

/**
 * The longest delay timers keep: a longer one (or `Infinity`) would fire at once in every runtime, so
 * it means "no time limit" instead.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** Runs `work` with a signal that aborts when `parent` does or `timeoutMs` passes. */
export function runWithDeadline<T>(
  work: (signal: AbortSignal) => T | Promise<T>,
  parent: AbortSignal,
  timeoutMs: number,
): Promise<DeadlineOutcome<T>> {
  if (parent.aborted) return Promise.resolve({ kind: "aborted" });
  const controller = new AbortController();
  let settle: (outcome: DeadlineOutcome<T>) => void = () => {};
  const interrupted = new Promise<DeadlineOutcome<T>>((resolve) => {
    settle = resolve;
  });
  const onAbort = (): void => {
    controller.abort(parent.reason);
    settle({ kind: "aborted" });
  };
  const timer =
    timeoutMs > MAX_TIMER_MS
      ? undefined
      : setTimeout(() => {
          controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, "TimeoutError"));
          settle({ kind: "timeout" });
        }, timeoutMs);
  parent.addEventListener("abort", onAbort, { once: true });
  let running: Promise<DeadlineOutcome<T>>;
  try {
    running = Promise.resolve(work(controller.signal)).then(
      (value): DeadlineOutcome<T> => ({ kind: "done", value }),
      (error: unknown): DeadlineOutcome<T> => ({ kind: "threw", error }),
    );
  } catch (error) {
    running = Promise.resolve({ kind: "threw", error });
  }
  return Promise.race([running, interrupted]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
    parent.removeEventListener("abort", onAbort);
  });
}
