/**
 * withTimeLimit: a time limit whose timer ends with the work (AbortSignal.timeout's lives until it
 * fires, which keeps a Worker's request alive for the whole limit).
 */
import { describe, expect, it } from "vitest";
import { withTimeLimit } from "../../src/http/time-limit.ts";
import { countListeners } from "../support/leftovers.ts";

const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("withTimeLimit", () => {
  it("clears its timer as soon as the work settles", async () => {
    const before = timers();
    expect(await withTimeLimit(60_000, async () => "done")).toBe("done");
    await expect(withTimeLimit(60_000, async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(timers()).toBe(before);
  });

  it("aborts the work with a TimeoutError when the limit passes, and says so", async () => {
    let seen: unknown;
    const fired = await withTimeLimit(5, (signal, timedOut) => {
      return new Promise<boolean>((resolve) => {
        signal.addEventListener("abort", () => {
          seen = signal.reason;
          resolve(timedOut());
        });
      });
    });
    expect(fired).toBe(true);
    expect(seen).toMatchObject({ name: "TimeoutError", message: "The operation timed out after 5 ms" });
  });

  it("leaves no listener on the caller's long-lived signal, whichever way the work ends", async () => {
    const caller = new AbortController();
    const listeners = countListeners(caller.signal);
    for (let i = 0; i < 3; i++) await withTimeLimit(60_000, async () => i, caller.signal);
    await expect(
      withTimeLimit(60_000, async () => Promise.reject(new Error("no")), caller.signal),
    ).rejects.toThrow();
    await withTimeLimit(
      1,
      (signal) => new Promise((resolve) => signal.addEventListener("abort", resolve)),
      caller.signal,
    );
    expect(listeners.added).toBe(5);
    expect(listeners.live).toBe(0);
  });

  it("passes on the caller's abort, with its reason, and then it did not time out", async () => {
    const caller = new AbortController();
    const result = withTimeLimit(
      60_000,
      (signal, timedOut) =>
        new Promise<[unknown, boolean]>((resolve) => {
          signal.addEventListener("abort", () => resolve([signal.reason, timedOut()]));
        }),
      caller.signal,
    );
    caller.abort("stop");
    expect(await result).toEqual(["stop", false]);
    const already = AbortSignal.abort("before");
    expect(await withTimeLimit(60_000, async (signal) => signal.reason, already)).toBe("before");
  });
});
