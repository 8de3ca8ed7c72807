/**
 * `idleTimeoutMs` bounds the silence between chunks, not the length of an answer: a stream whose
 * chunks keep coming, each well inside the idle limit, runs for as long as it needs (here three
 * times the limit and more) and completes; a single gap longer than the limit ends it with TIMEOUT.
 * The clock is Vitest's fake one, so the margins are exact whatever the machine's load; one test
 * repeats the first case over real loopback HTTP with a 20× margin per gap.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamTurn } from "../../src/index.ts";
import { inFakeTime, useFakeClock } from "../support/fake-time.ts";
import { loopbackModel } from "../support/loopback.ts";
import { HELLO, PIECES, warmProvider, watchedTurn } from "../support/watched-turn.ts";

const IDLE_MS = 200;

warmProvider();

afterEach(() => {
  vi.useRealTimers();
});

describe("the idle limit is per gap, not per answer", () => {
  it("a stream that trickles past the idle limit in total completes (fake clock)", async () => {
    useFakeClock();
    // 40 text pieces (45 events), one every 20 ms: about 900 ms, 4.5 times the 200 ms idle limit.
    const { events, turn } = watchedTurn([{ content: [{ type: "text", text: PIECES }], delayMs: 20 }], {
      idleTimeoutMs: IDLE_MS,
    });
    const { value: message, elapsedMs } = await inFakeTime(turn.message, { stepMs: 5, limitMs: 5000 });
    expect(message.error).toBeUndefined();
    expect(message.stopReason).toBe("complete");
    expect(elapsedMs).toBeGreaterThanOrEqual(3 * IDLE_MS);
    expect(message.content).toEqual([{ type: "text", text: PIECES.join("") }]);
    expect(events.filter((event) => event.type === "text-delta")).toHaveLength(PIECES.length);
  });

  it("the check can fail: one gap longer than the idle limit is a TIMEOUT (fake clock)", async () => {
    useFakeClock();
    // The same answer with 250 ms between events: the first gap already exceeds 200 ms.
    const { turn } = watchedTurn([{ content: [{ type: "text", text: PIECES }], delayMs: 250 }], {
      idleTimeoutMs: IDLE_MS,
    });
    const { value: message, elapsedMs } = await inFakeTime(turn.message, { stepMs: 5, limitMs: 5000 });
    expect(message.stopReason).toBe("error");
    expect(message.error?.code).toBe("TIMEOUT");
    expect(message.error?.message).toContain(`No data arrived for ${IDLE_MS} ms`);
    // Cut after the limit, long before the answer would have ended.
    expect(elapsedMs).toBeGreaterThanOrEqual(IDLE_MS);
    expect(elapsedMs).toBeLessThan(2 * IDLE_MS);
  });

  it("silence before the headers counts too: no answer within the idle limit is a TIMEOUT", async () => {
    useFakeClock();
    const { turn } = watchedTurn([{ content: [{ type: "text", text: "late" }], headersDelayMs: 10_000 }], {
      idleTimeoutMs: IDLE_MS,
    });
    const { value: message, elapsedMs } = await inFakeTime(turn.message, { stepMs: 5, limitMs: 5000 });
    expect(message.error?.code).toBe("TIMEOUT");
    expect(elapsedMs).toBeGreaterThanOrEqual(IDLE_MS);
    expect(elapsedMs).toBeLessThan(2 * IDLE_MS);
  });
});

describe("over real loopback HTTP", () => {
  const server = loopbackModel();

  it("a stream trickling for twice the idle limit completes (20× margin per gap)", async () => {
    // 40 pieces, 20 ms apart: about 900 ms of streaming against a 400 ms idle limit, each gap 20× inside it.
    server.model.push({ content: [{ type: "text", text: PIECES }], delayMs: 20 });
    const started = performance.now();
    const message = await streamTurn(
      { messages: HELLO },
      {
        model: "anthropic/claude-sonnet-4-5",
        baseURL: server.url,
        apiKey: "k",
        retry: { maxRetries: 0 },
        idleTimeoutMs: 400,
      },
    ).message;
    expect(message.error).toBeUndefined();
    expect(message.content).toEqual([{ type: "text", text: PIECES.join("") }]);
    // The stream did last longer than the idle limit (a slow machine only makes it longer).
    expect(performance.now() - started).toBeGreaterThan(400);
  });
});
