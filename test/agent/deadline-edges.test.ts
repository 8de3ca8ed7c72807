/**
 * What user code sees when its deadline passes: its signal aborts with a `TimeoutError` DOMException
 * that says how long it had.
 */
import { expect, it } from "vitest";
import { runWithDeadline } from "../../src/agent/deadline.ts";

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
