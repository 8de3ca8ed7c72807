/**
 * Time limits past what timers hold (about 24.8 days, or Infinity) mean "no limit": a timer given
 * such a delay fires at once in every runtime, which would fail a hook or tool instantly.
 */
import { describe, expect, it } from "vitest";
import { runWithDeadline } from "../../src/agent/deadline.ts";

const later = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve("done"), ms));

describe("runWithDeadline", () => {
  it.each([Number.POSITIVE_INFINITY, 2 ** 31, 3e9])(
    "a limit of %d does not time out the work",
    async (limit) => {
      const outcome = await runWithDeadline(() => later(15), new AbortController().signal, limit);
      expect(outcome).toEqual({ kind: "done", value: "done" });
    },
  );

  it("a limit timers can hold still times out", async () => {
    const outcome = await runWithDeadline(() => later(200), new AbortController().signal, 5);
    expect(outcome.kind).toBe("timeout");
  });
});
