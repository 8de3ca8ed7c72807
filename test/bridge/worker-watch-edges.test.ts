/**
 * The main thread's heartbeat (src/bridge/worker-watch.ts), driven directly under Vitest's fake clock:
 * the tick is a quarter of `workerTimeoutMs` within 10 ms – 1 s, a ping goes out on the first tick and
 * the worker is given up exactly the limit's worth of ticks after an unanswered ping, hearing from the
 * worker resets that, the watch stops (its timer cleared) when nothing waits or on `stop`, starts only
 * once, and does not start at all for a limit no timer can hold. A silent worker behind a real port is
 * in bridge.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS } from "../../src/agent/deadline.ts";
import { WorkerWatch } from "../../src/bridge/worker-watch.ts";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A watched worker with `limitMs` of allowed silence; `busy` says whether anything waits on it. */
function watched(limitMs: number) {
  const worker = {
    busy: true,
    limitMs,
    pings: 0,
    gaveUp: [] as string[],
  };
  const watch = new WorkerWatch({
    silenceLimitMs: () => worker.limitMs,
    busy: () => worker.busy,
    ping: () => {
      worker.pings++;
    },
    giveUp: (why) => {
      worker.gaveUp.push(why);
    },
  });
  return { worker, watch };
}

describe("ticks", () => {
  it("ticks at a quarter of the limit: 25 ms for 100 ms", () => {
    const { worker, watch } = watched(100);
    watch.watch();
    vi.advanceTimersByTime(24);
    expect(worker.pings).toBe(0);
    vi.advanceTimersByTime(1);
    expect(worker.pings).toBe(1);
    watch.stop();
  });

  it("ticks at most once a second", () => {
    const { worker, watch } = watched(8_000);
    watch.watch();
    vi.advanceTimersByTime(999);
    expect(worker.pings).toBe(0);
    vi.advanceTimersByTime(1);
    expect(worker.pings).toBe(1);
    watch.stop();
  });

  it("ticks at least 10 ms apart", () => {
    const { worker, watch } = watched(8);
    watch.watch();
    vi.advanceTimersByTime(9);
    expect(worker.pings).toBe(0);
    vi.advanceTimersByTime(1);
    expect(worker.pings).toBe(1);
    watch.stop();
  });

  it("starts for the longest limit a timer can hold, and not at all for a longer one", () => {
    const longest = watched(MAX_TIMER_MS);
    longest.watch.watch();
    vi.advanceTimersByTime(1_000);
    expect(longest.worker.pings).toBe(1);
    longest.watch.stop();

    const endless = watched(Number.POSITIVE_INFINITY);
    endless.watch.watch();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(endless.worker.pings).toBe(0);
  });
});

describe("giving up", () => {
  it("gives the worker up exactly the limit's worth of ticks after an unanswered ping", () => {
    const { worker, watch } = watched(100);
    watch.watch();
    vi.advanceTimersByTime(25); // the ping
    expect(worker.pings).toBe(1);
    vi.advanceTimersByTime(75);
    expect(worker.gaveUp).toEqual([]);
    vi.advanceTimersByTime(25);
    expect(worker.gaveUp).toEqual(["the worker did not answer for 100 ms"]);
    expect(worker.pings).toBe(1);
    watch.stop();
  });

  it("a worker that answers each ping is never given up, and is pinged again on the next tick", () => {
    const { worker, watch } = watched(100);
    watch.watch();
    for (let tick = 0; tick < 20; tick++) {
      vi.advanceTimersByTime(25);
      watch.heard();
    }
    expect(worker.gaveUp).toEqual([]);
    expect(worker.pings).toBe(20);
    watch.stop();
  });
});

describe("stopping", () => {
  it("stops, its timer cleared, on the first tick when nothing waits, and starts again afresh", () => {
    const { worker, watch } = watched(8_000);
    worker.busy = false;
    watch.watch();
    vi.advanceTimersByTime(1_000);
    expect(worker.pings).toBe(0);
    expect(vi.getTimerCount()).toBe(0);

    // The limit is read again when the watch starts again.
    worker.busy = true;
    worker.limitMs = 100;
    watch.watch();
    vi.advanceTimersByTime(25);
    expect(worker.pings).toBe(1);
    watch.stop();
  });

  it("stop() clears the timer: no more pings, no giving up", () => {
    const { worker, watch } = watched(100);
    watch.watch();
    vi.advanceTimersByTime(25);
    watch.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(worker.pings).toBe(1);
    expect(worker.gaveUp).toEqual([]);
  });

  it("watching again while it runs starts no second heartbeat", () => {
    const { worker, watch } = watched(100);
    watch.watch();
    watch.watch();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(25);
    expect(worker.pings).toBe(1);
    watch.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
