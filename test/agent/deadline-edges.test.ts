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
