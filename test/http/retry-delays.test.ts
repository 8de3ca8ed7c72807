/**
 * The waits between attempts, exactly: exponential growth (×2 per retry from `initialDelayMs`), full
 * jitter within [d/2, d] drawn from `random`, the `maxDelayMs` cap on that growth, and the server's
 * own wait (`retry-after-ms`, `retry-after`) honoured as given up to `maxRetryAfterMs` — beyond it,
 * no retry. First `retryDelay` itself with `random` injected, then through `streamTurn`, where the
 * scheduled waits are read off the fake clock: the times at which the attempts reach the server.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ProviderError, RequestError } from "../../src/errors/sdk-error.ts";
import {
  DEFAULT_RETRY,
  NOT_RETRIED,
  type RetryOptions,
  retryDelay,
  retryPolicy,
} from "../../src/http/retry-policy.ts";
import { streamTurn, type TurnEvent } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { inFakeTime, useFakeClock } from "../support/fake-time.ts";

const retryable = (retryAfterMs?: number) =>
  new ProviderError("Overloaded", {
    code: "OVERLOADED",
    status: 529,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

/** The waits before retries 0..count-1 of a retryable error, with `random` fixed at `r`. */
function waits(count: number, r: number, options: RetryOptions = {}): Array<number | object> {
  const policy = retryPolicy({ maxRetries: count, ...options });
  return Array.from({ length: count }, (_, attempt) => retryDelay(retryable(), attempt, policy, () => r));
}

describe("retryDelay", () => {
  it("the defaults are the official SDKs' (2 retries, 500 ms doubling to 8 s, server waits to 60 s)", () => {
    expect(DEFAULT_RETRY).toEqual({
      maxRetries: 2,
      initialDelayMs: 500,
      maxDelayMs: 8000,
      maxRetryAfterMs: 60_000,
    });
  });

  it("grows ×2 per retry and stops growing at maxDelayMs: the top of the jitter range", () => {
    // random() just below 1: the whole ceiling.
    expect(waits(7, 0.999_999_9)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("the bottom of the jitter range is half the ceiling, never zero", () => {
    expect(waits(7, 0)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
  });

  it("in between, the wait is ceiling/2 + random × ceiling/2", () => {
    expect(waits(7, 0.5)).toEqual([375, 750, 1500, 3000, 6000, 6000, 6000]);
    expect(waits(4, 0.25, { initialDelayMs: 100, maxDelayMs: 500 })).toEqual([63, 125, 250, 313]);
  });

  it("every draw lands within [d/2, d] of its ceiling, and random is drawn once per wait", () => {
    const policy = retryPolicy({ maxRetries: 8, initialDelayMs: 300, maxDelayMs: 5000 });
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(5000, 300 * 2 ** attempt);
      const seen = new Set<number>();
      for (let step = 0; step < 100; step++) {
        let draws = 0;
        const delay = retryDelay(retryable(), attempt, policy, () => {
          draws++;
          return step / 100;
        });
        expect(draws).toBe(1);
        expect(typeof delay).toBe("number");
        expect(delay as number).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay as number).toBeLessThanOrEqual(ceiling);
        seen.add(delay as number);
      }
      // The draw spreads the waits over the range, not onto one value.
      expect(seen.size).toBeGreaterThan(Math.min(50, ceiling / 4));
    }
  });

  it("the server's wait is honoured as given, above maxDelayMs, up to maxRetryAfterMs, without jitter", () => {
    const policy = retryPolicy({ maxDelayMs: 1000, maxRetryAfterMs: 30_000 });
    const random = vi.fn(() => 0.5);
    expect(retryDelay(retryable(20_000), 0, policy, random)).toBe(20_000);
    expect(retryDelay(retryable(30_000), 1, policy, random)).toBe(30_000);
    expect(retryDelay(retryable(0), 0, policy, random)).toBe(0);
    expect(retryDelay(retryable(7), 0, policy, random)).toBe(7);
    expect(random).not.toHaveBeenCalled();
  });

  it("a server wait longer than maxRetryAfterMs ends the retries, saying why", () => {
    const policy = retryPolicy({ maxRetryAfterMs: 30_000 });
    expect(retryDelay(retryable(30_001), 0, policy, () => 0.5)).toEqual({
      why: " — not retried: the server asked to wait 30.001 s (retry.maxRetryAfterMs: 30 s)",
    });
  });

  it("no wait for an error that is not retryable, or once maxRetries are spent", () => {
    const policy = retryPolicy({ maxRetries: 2 });
    const invalid = new ProviderError("Bad request", { code: "INVALID_REQUEST", status: 400 });
    expect(retryDelay(invalid, 0, policy, () => 0.5)).toBe(NOT_RETRIED);
    expect(retryDelay(retryable(), 2, policy, () => 0.5)).toBe(NOT_RETRIED);
    expect(retryDelay(retryable(100), 2, policy, () => 0.5)).toBe(NOT_RETRIED);
    expect(retryDelay(new RequestError("Timed out", { code: "TIMEOUT" }), 1, policy, () => 0)).toBe(500);
  });
});

describe("streamTurn waits exactly those delays (fake clock)", () => {
  const hello = [
    { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
  ];
  const ok: ScriptedTurn = { content: [{ type: "text", text: "fine" }] };
  const failing = (fault: Partial<Extract<ScriptedTurn["fault"], { type: "http" }>> = {}): ScriptedTurn => ({
    fault: { type: "http", status: 529, ...fault },
  });

  /** Runs a turn over `script`; resolves with its message, its retry events and the gaps between attempts. */
  async function run(script: ScriptedTurn[], retry: RetryOptions) {
    const model = createScriptedModel({ script });
    const sentAt: number[] = [];
    const events: TurnEvent[] = [];
    const turn = streamTurn(
      { messages: hello },
      {
        model: "anthropic/claude-sonnet-4-5",
        fetch: (input, init) => {
          sentAt.push(Date.now());
          return model.fetch(input, init);
        },
        retry,
        onEvent: (event) => events.push(event),
      },
    );
    const { value: message } = await inFakeTime(turn.message, { stepMs: 1, limitMs: 20_000 });
    const gaps = sentAt.slice(1).map((at, index) => at - (sentAt[index] as number));
    const retries = events.flatMap((event) => (event.type === "retry" ? [event] : []));
    return { message, gaps, retries, requests: model.requests.length };
  }

  beforeAll(async () => {
    // The provider's code is loaded (real I/O the fake clock cannot wait for) before any test.
    await streamTurn(
      { messages: hello },
      { model: "anthropic/claude-sonnet-4-5", fetch: createScriptedModel({ script: [ok] }).fetch },
    ).message;
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it.each([
    { random: 0.5, expected: [75, 150, 300, 375] },
    { random: 0, expected: [50, 100, 200, 250] },
    { random: 0.999_999_9, expected: [100, 200, 400, 500] },
  ])("random() = $random: the attempts are $expected ms apart", async ({ random, expected }) => {
    useFakeClock();
    vi.spyOn(Math, "random").mockReturnValue(random);
    const { message, gaps, retries } = await run([failing(), failing(), failing(), failing(), ok], {
      maxRetries: 4,
      initialDelayMs: 100,
      maxDelayMs: 500,
    });
    expect(message.error).toBeUndefined();
    expect(message.content).toEqual([{ type: "text", text: "fine" }]);
    expect(gaps).toEqual(expected);
    expect(retries.map((event) => [event.attempt, event.delayMs])).toEqual(
      expected.map((delay, index) => [index + 1, delay]),
    );
  });

  it("after maxRetries the error says how many attempts were made", async () => {
    useFakeClock();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const { message, gaps, requests } = await run([failing(), failing(), failing()], {
      maxRetries: 2,
      initialDelayMs: 40,
    });
    expect(requests).toBe(3);
    expect(gaps).toEqual([30, 60]);
    expect(message.error).toMatchObject({ code: "OVERLOADED", attempts: 3 });
    expect(message.error?.message).toContain("after 3 attempts");
  });

  it("retry-after-ms is waited as given, above maxDelayMs and without jitter", async () => {
    useFakeClock();
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { message, gaps, retries } = await run(
      [failing({ status: 429, retryAfterMs: 1234 }), failing({ retryAfterMs: 7 }), ok],
      { maxRetries: 2, initialDelayMs: 100, maxDelayMs: 200, maxRetryAfterMs: 2000 },
    );
    expect(message.error).toBeUndefined();
    expect(gaps).toEqual([1234, 7]);
    expect(retries.map((event) => event.delayMs)).toEqual([1234, 7]);
  });

  it("retry-after in seconds is waited as given", async () => {
    useFakeClock();
    const { message, gaps } = await run([failing({ status: 429, retryAfter: 3 }), ok], {
      maxRetries: 1,
      maxDelayMs: 100,
    });
    expect(message.error).toBeUndefined();
    expect(gaps).toEqual([3000]);
  });

  it("a server wait beyond maxRetryAfterMs is not retried: one attempt, the wait on the error", async () => {
    useFakeClock();
    const { message, requests, retries } = await run([failing({ status: 429, retryAfterMs: 2001 }), ok], {
      maxRetries: 2,
      maxRetryAfterMs: 2000,
    });
    expect(requests).toBe(1);
    expect(retries).toEqual([]);
    expect(message.error).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 2001 });
    expect(message.error?.message).toContain(
      "not retried: the server asked to wait 2.001 s (retry.maxRetryAfterMs: 2 s)",
    );
  });
});
