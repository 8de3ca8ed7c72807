/**
 * abortableSleep: the retry wait. It ends with `true` after its time, with `false` at once when its
 * signal aborts (or had aborted before), and leaves no timer behind either way (issue 41's survivors:
 * an already aborted signal that slept the whole wait, an abort that left the timer running).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { abortableSleep } from "../../src/http/abortable-sleep.ts";
import { countListeners } from "../support/leftovers.ts";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("abortableSleep", () => {
  it("resolves true after its time, and not before, and takes its listener off the signal", async () => {
    const { signal } = new AbortController();
    const listeners = countListeners(signal);
    let result: boolean | undefined;
    void abortableSleep(100, signal).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(99);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners.live).toBe(0);
  });

  it("resolves false at once for a signal that has already aborted, without a timer", async () => {
    const sleep = abortableSleep(60_000, AbortSignal.abort());
    expect(vi.getTimerCount()).toBe(0);
    expect(await sleep).toBe(false);
  });

  it("resolves false as soon as the signal aborts, and leaves neither its timer nor its listener", async () => {
    const controller = new AbortController();
    const listeners = countListeners(controller.signal);
    let result: boolean | undefined;
    void abortableSleep(60_000, controller.signal).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(result).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners.added).toBe(1);
    expect(listeners.live).toBe(0);
  });
});
