/**
 * What user code sees when its deadline passes: its signal aborts with a `TimeoutError` DOMException
 * that says how long it had.
 */
import { expect, it, vi } from "vitest";
import { MAX_TIMER_MS, runWithDeadline } from "../../src/agent/deadline.ts";

it("a timed-out piece of work finds a TimeoutError naming its limit as its signal's reason", async () => {
  let reason: unknown;
  const outcome = await runWithDeadline(
    (signal) =>
      new Promise<never>(() => {
        signal.addEventListener("abort", () => {
          reason = signal.reason;
        });
      }),
    new AbortController().signal,
    5,
  );
  expect(outcome).toEqual({ kind: "timeout" });
  expect(reason).toBeInstanceOf(DOMException);
  expect(reason).toMatchObject({ name: "TimeoutError", message: "Timed out after 5 ms" });
});

it("work whose parent signal is already aborted is not started", async () => {
  const parent = new AbortController();
  parent.abort(new Error("gone"));
  let started = false;
  const outcome = await runWithDeadline(
    () => {
      started = true;
      return "done";
    },
    parent.signal,
    1_000,
  );
  expect(outcome).toEqual({ kind: "aborted" });
  expect(started).toBe(false);
});

it("the longest limit a timer holds (2^31 - 1 ms, about 24.8 days) is still a limit: the work times out then", async () => {
  vi.useFakeTimers();
  try {
    const outcome = runWithDeadline(
      () => new Promise<never>(() => {}),
      new AbortController().signal,
      MAX_TIMER_MS,
    );
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS - 1);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toEqual({ kind: "timeout" });
  } finally {
    vi.useRealTimers();
  }
});
