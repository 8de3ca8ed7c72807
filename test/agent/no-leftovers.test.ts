/**
 * "No timer or listener is left behind" (deadline.ts), checked: `runWithDeadline` under a signal the
 * caller keeps ends with the listeners that signal had, whatever the work did (returned, threw, ran
 * out of time, was aborted), and with no timer pending; and whole agent runs — tools and hooks each
 * under their deadline, retried turns — leave the caller's long-lived signal as they found it, no
 * abort listener of Wisp's on any signal, and no timer of Wisp's pending.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { runWithDeadline } from "../../src/agent/deadline.ts";
import { defineTool, type Hooks, runAgent } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { useFakeClock } from "../support/fake-time.ts";
import {
  countListeners,
  settleEventLoop,
  trackWispListeners,
  trackWispTimers,
} from "../support/leftovers.ts";

const never = () => new Promise<never>(() => {});

/** Work that ends each way `runWithDeadline` reports, under a 60 s deadline unless it is the timeout. */
const WORKS: Array<{ kind: string; work: (signal: AbortSignal) => unknown; timeoutMs: number }> = [
  { kind: "done", work: () => "value", timeoutMs: 60_000 },
  { kind: "done", work: async () => "later", timeoutMs: 60_000 },
  { kind: "threw", work: () => Promise.reject(new Error("no")), timeoutMs: 60_000 },
  {
    kind: "threw",
    work: () => {
      throw new Error("at once");
    },
    timeoutMs: 60_000,
  },
  { kind: "timeout", work: never, timeoutMs: 1 },
  { kind: "done", work: () => "no limit", timeoutMs: Number.POSITIVE_INFINITY },
];

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

describe("runWithDeadline", () => {
  it("a long-lived parent signal ends with the listeners it had, after 300 deadlines", async () => {
    const parent = new AbortController().signal;
    const listeners = countListeners(parent);
    for (let round = 0; round < 50; round++) {
      for (const { kind, work, timeoutMs } of WORKS) {
        const outcome = await runWithDeadline(work, parent, timeoutMs);
        expect(outcome.kind).toBe(kind);
        expect(listeners.live, `after a deadline that ended "${kind}"`).toBe(0);
      }
    }
    expect(listeners.added).toBe(50 * WORKS.length);
  });

  it.each(WORKS)(
    "no timer is pending once it ends $kind (deadline $timeoutMs ms)",
    async ({ kind, work, timeoutMs }) => {
      useFakeClock();
      const running = runWithDeadline(work, new AbortController().signal, timeoutMs);
      if (kind === "timeout") await vi.advanceTimersByTimeAsync(timeoutMs);
      expect((await running).kind).toBe(kind);
      expect(vi.getTimerCount()).toBe(0);
    },
  );

  it("no timer is pending once the parent aborts it, and the work's signal aborted with the parent's reason", async () => {
    useFakeClock();
    const parent = new AbortController();
    let workSignal: AbortSignal | undefined;
    const running = runWithDeadline(
      (signal) => {
        workSignal = signal;
        return never();
      },
      parent.signal,
      60_000,
    );
    expect(vi.getTimerCount()).toBe(1);
    parent.abort("stop");
    expect(await running).toEqual({ kind: "aborted" });
    expect(workSignal?.reason).toBe("stop");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the check can fail: work still running when its deadline is checked keeps its timer and listener", () => {
    useFakeClock();
    const parent = new AbortController().signal;
    const listeners = countListeners(parent);
    void runWithDeadline(never, parent, 60_000);
    expect(vi.getTimerCount()).toBe(1);
    expect(listeners.live).toBe(1);
  });
});

describe("agent runs", () => {
  const echo = defineTool({
    name: "echo",
    description: "Echoes",
    input: z.object({ text: z.string() }),
    execute: async ({ text }) => `echo: ${text}`,
  });
  const slow = defineTool({
    name: "slow",
    description: "Never answers in time",
    inputSchema: { type: "object" },
    timeoutMs: 5,
    execute: () => never(),
  });
  const broken = defineTool({
    name: "broken",
    description: "Throws",
    inputSchema: { type: "object" },
    execute: () => {
      throw new Error("broken");
    },
  });
  const hooks: Hooks = {
    preToolUse: () => ({ decision: "allow" }),
    postToolUse: async () => {},
    stop: () => {},
  };
  const overloaded = { fault: { type: "http" as const, status: 529 } };

  /** A run with tools that answer, time out and throw, hooks around them, and a retried turn. */
  function busyRun(signal: AbortSignal) {
    const { options } = scripted([
      calls(["echo", { text: "a" }], ["slow", {}], ["broken", {}]),
      overloaded,
      calls(["echo", { text: "b" }]),
      says("done"),
    ]);
    return runAgent(
      options({ tools: [echo, slow, broken], hooks, signal, retry: { maxRetries: 1, initialDelayMs: 1 } }),
    );
  }

  it("a long-lived signal passed to 20 runs ends with the listeners it had", async () => {
    const signal = new AbortController().signal;
    const listeners = countListeners(signal);
    for (let run = 0; run < 20; run++) {
      const result = await busyRun(signal);
      expect(result.ok && result.value.text).toBe("done");
      expect(listeners.live, `after run ${run + 1}`).toBe(0);
    }
    expect(listeners.added).toBeGreaterThanOrEqual(20);
  });

  it("a run leaves no abort listener of Wisp's on any signal, its own included", async () => {
    const tracker = trackWispListeners();
    stops.push(tracker.stop);
    const result = await busyRun(new AbortController().signal);
    await settleEventLoop();
    tracker.stop();
    expect(result.ok && result.value.toolCalls.map((call) => call.result.isError)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(tracker.added()).toBeGreaterThan(10);
    expect(tracker.left()).toEqual([]);
  });

  it("a run leaves no timer of Wisp's pending: tool and hook deadlines, attempt timers, retry waits", async () => {
    const timers = trackWispTimers();
    stops.push(timers.stop);
    const result = await busyRun(new AbortController().signal);
    await settleEventLoop();
    timers.stop();
    expect(result.ok).toBe(true);
    expect(timers.started()).toBeGreaterThan(10);
    expect(timers.pending()).toEqual([]);
  });

  it("an aborted run leaves neither", async () => {
    const tracker = trackWispListeners();
    const timers = trackWispTimers();
    stops.push(tracker.stop, timers.stop);
    const controller = new AbortController();
    const { options } = scripted([calls(["gate", {}]), says("never")]);
    const gate = defineTool({
      name: "gate",
      description: "Aborts the run from inside",
      inputSchema: { type: "object" },
      execute: () => {
        controller.abort("enough");
        return never();
      },
    });
    const result = await runAgent(options({ tools: [gate], hooks, signal: controller.signal }));
    await settleEventLoop();
    tracker.stop();
    timers.stop();
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(tracker.left()).toEqual([]);
    expect(timers.pending()).toEqual([]);
  });
});
