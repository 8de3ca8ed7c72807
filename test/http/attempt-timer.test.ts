/**
 * AttemptTimer: one HTTP attempt's two clocks (the total deadline and the idle limit between chunks),
 * driven on Vitest's fake clock so every boundary is exact. Written against the mutants Stryker left
 * alive (issue 41): a limit of 0 or Infinity that armed a timer anyway, an idle limit that fired late
 * or never at its boundary, a hold that gave back time instead of spending it, a fired timer that left
 * the other running, an abort reason without its description.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AttemptTimer } from "../../src/http/attempt-timer.ts";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("AttemptTimer", () => {
  it("arms no timer for a limit of 0 or Infinity (no limit)", async () => {
    for (const [total, idle] of [
      [0, 0],
      [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
      [0, Number.POSITIVE_INFINITY],
    ] as const) {
      const controller = new AbortController();
      const timer = new AttemptTimer(controller, total, idle);
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(controller.signal.aborted).toBe(false);
      expect(timer.fired).toBeUndefined();
    }
  });

  it("fires the total deadline at its limit, with a TimeoutError that says which limit, and stops the idle clock", async () => {
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, 100, 1_000);
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(99);
    expect(controller.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(timer.fired).toBe("The request took longer than 100 ms");
    expect(controller.signal.reason).toBeInstanceOf(DOMException);
    expect(controller.signal.reason).toMatchObject({
      name: "TimeoutError",
      message: "The request took longer than 100 ms",
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fires the idle limit exactly when no chunk came for that long", async () => {
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, 0, 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(timer.fired).toBe("No data arrived for 100 ms");
    expect(controller.signal.reason).toMatchObject({
      name: "TimeoutError",
      message: "No data arrived for 100 ms",
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("counts the idle limit from the last chunk: a timer that fires early waits only what is left", async () => {
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, 0, 100);
    await vi.advanceTimersByTimeAsync(50);
    timer.touch();
    // The timer armed at 0 fires at 100, finds 50 ms of quiet, and waits the other 50.
    await vi.advanceTimersByTimeAsync(99);
    expect(controller.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(timer.fired).toBe("No data arrived for 100 ms");
  });

  it("spends the total deadline's time before a hold: after it, only what was left remains", async () => {
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, 100, 0);
    await vi.advanceTimersByTimeAsync(60);
    let done = (): void => {};
    const held = timer.hold(new Promise<void>((resolve) => (done = resolve)));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000); // a person takes their time: the clock is stopped
    expect(controller.signal.aborted).toBe(false);
    done();
    await held;
    await vi.advanceTimersByTimeAsync(39);
    expect(controller.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(timer.fired).toBe("The request took longer than 100 ms");
  });

  it("starts no clock again after a hold once a limit has fired", async () => {
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, 100, 50);
    await vi.advanceTimersByTimeAsync(50);
    expect(timer.fired).toBe("No data arrived for 50 ms");
    await timer.hold(Promise.resolve());
    expect(vi.getTimerCount()).toBe(0);
    expect(timer.fired).toBe("No data arrived for 50 ms");
  });

  it("clear() stops both clocks", async () => {
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, 100, 50);
    timer.clear();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(controller.signal.aborted).toBe(false);
  });
});
