/**
 * `timeoutMs` bounds each attempt, headers and body: a server that never answers, or one that answers
 * slowly but without pause (so the idle limit never fires), ends the attempt with TIMEOUT when
 * `timeoutMs` has passed — long before the 10-minute default and the idle limit. With retries, each
 * attempt gets the whole bound again. The clock is Vitest's fake one (exact, whatever the load); one
 * test repeats the first case over real loopback HTTP.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamTurn } from "../../src/index.ts";
import type { ScriptedTurn } from "../../src/testing/index.ts";
import { inFakeTime, useFakeClock } from "../support/fake-time.ts";
import { loopbackModel } from "../support/loopback.ts";
import { HELLO, PIECES, warmProvider, watchedTurn } from "../support/watched-turn.ts";

/** An idle limit that never fires in these tests: only `timeoutMs` can end them. */
const NO_IDLE = 600_000;

warmProvider();

afterEach(() => {
  vi.useRealTimers();
});

describe("timeoutMs bounds one attempt", () => {
  it("a server that never sends its headers: TIMEOUT after timeoutMs (fake clock)", async () => {
    useFakeClock();
    const { turn } = watchedTurn([{ content: [{ type: "text", text: "late" }], headersDelayMs: 3_600_000 }], {
      timeoutMs: 50,
      idleTimeoutMs: NO_IDLE,
    });
    const { value: message, elapsedMs } = await inFakeTime(turn.message, { stepMs: 1, limitMs: 2000 });
    expect(message.stopReason).toBe("error");
    expect(message.error?.code).toBe("TIMEOUT");
    expect(message.error?.message).toContain("The request took longer than 50 ms");
    expect(elapsedMs).toBeGreaterThanOrEqual(50);
    expect(elapsedMs).toBeLessThanOrEqual(51);
  });

  it("a stream that never pauses but outlasts timeoutMs: TIMEOUT, with what had arrived (fake clock)", async () => {
    useFakeClock();
    // An event every 20 ms (inside the 200 ms idle limit) for about 900 ms; the bound is 300 ms.
    const { turn, events } = watchedTurn([{ content: [{ type: "text", text: PIECES }], delayMs: 20 }], {
      timeoutMs: 300,
      idleTimeoutMs: 200,
    });
    const { value: message, elapsedMs } = await inFakeTime(turn.message, { stepMs: 1, limitMs: 5000 });
    expect(message.error?.code).toBe("TIMEOUT");
    expect(message.error?.message).toContain("The request took longer than 300 ms");
    expect(elapsedMs).toBeGreaterThanOrEqual(300);
    expect(elapsedMs).toBeLessThanOrEqual(301);
    const deltas = events.filter((event) => event.type === "text-delta");
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.length).toBeLessThan(PIECES.length);
    expect(message.content).toEqual([{ type: "text", text: PIECES.slice(0, deltas.length).join("") }]);
  });

  it("each retry gets the whole bound again (fake clock)", async () => {
    useFakeClock();
    vi.spyOn(Math, "random").mockReturnValue(1); // no jitter below the ceiling: the wait is 10 ms
    try {
      const never: ScriptedTurn = { content: [{ type: "text", text: "late" }], headersDelayMs: 3_600_000 };
      const { turn, model, events } = watchedTurn([never, never], {
        timeoutMs: 50,
        idleTimeoutMs: NO_IDLE,
        retry: { maxRetries: 1, initialDelayMs: 10 },
      });
      const { value: message, elapsedMs } = await inFakeTime(turn.message, { stepMs: 1, limitMs: 2000 });
      expect(message.error?.code).toBe("TIMEOUT");
      expect(model.requests).toHaveLength(2);
      expect(events.filter((event) => event.type === "retry")).toEqual([
        expect.objectContaining({ attempt: 1, delayMs: 10 }),
      ]);
      // 50 ms, a 10 ms wait, 50 ms.
      expect(elapsedMs).toBeGreaterThanOrEqual(110);
      expect(elapsedMs).toBeLessThanOrEqual(112);
    } finally {
      vi.mocked(Math.random).mockRestore();
    }
  });
});

describe("over real loopback HTTP", () => {
  const server = loopbackModel();

  it("a server that sends headers and then nothing: TIMEOUT after timeoutMs, not the default", async () => {
    server.model.push({
      content: [{ type: "text", text: "never" }],
      fault: { type: "stall", afterEvents: 0 },
    });
    const started = performance.now();
    // Ends the turn (as ABORTED) should the bound not work, so the test fails in seconds, not minutes.
    const giveUp = new AbortController();
    const backstop = setTimeout(() => giveUp.abort(new Error("gave up waiting")), 10_000);
    const message = await streamTurn(
      { messages: HELLO },
      {
        model: "anthropic/claude-sonnet-4-5",
        baseURL: server.url,
        apiKey: "k",
        retry: { maxRetries: 0 },
        timeoutMs: 100,
        idleTimeoutMs: NO_IDLE,
        signal: giveUp.signal,
      },
    ).message;
    clearTimeout(backstop);
    expect(message.error?.code).toBe("TIMEOUT");
    expect(message.error?.message).toContain("The request took longer than 100 ms");
    // Without the bound the turn would wait 10 minutes; here it ends within seconds even on a busy machine.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
