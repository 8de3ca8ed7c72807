/**
 * Driving code that waits on timers under Vitest's fake clock: time moves only when the test moves
 * it, so a test of timeouts and delays passes or fails the same on a loaded machine as on an idle one.
 */
import { vi } from "vitest";

/** Fakes `setTimeout`, `clearTimeout`, `Date` and `performance` only (streams and promises keep running for real). */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"], now: 0 });
}

/**
 * Moves the fake clock `stepMs` at a time until `promise` settles; resolves with its value and the
 * fake milliseconds it took. Rejects when it has not settled after `limitMs` of fake time. Real I/O
 * (a provider's code loaded by dynamic import) does not happen between steps: run one turn with the
 * real clock first (a `beforeAll`) so the provider is loaded.
 */
export async function inFakeTime<T>(
  promise: Promise<T>,
  { stepMs = 1, limitMs = 60_000 }: { stepMs?: number; limitMs?: number } = {},
): Promise<{ value: T; elapsedMs: number }> {
  const start = Date.now();
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await vi.advanceTimersByTimeAsync(0);
  while (!settled) {
    if (Date.now() - start >= limitMs) throw new Error(`still pending after ${limitMs} ms of fake time`);
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  return { value: await promise, elapsedMs: Date.now() - start };
}
