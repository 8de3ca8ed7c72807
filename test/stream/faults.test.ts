/**
 * Every scripted fault through every provider: the turn ends with the right typed error, retry count,
 * partial message and stop reason. Fast retry settings keep the waits short.
 */
import { describe, expect, it } from "vitest";
import { type ModelOption, streamTurn, type TurnEvent, type TurnOptions } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { HELLO } from "../support/replay.ts";

/** `afterOutput`: a number of events by which the first text delta has been sent; `beforeOutput`, before it. */
const PROVIDERS = [
  { name: "anthropic", model: "anthropic/claude-sonnet-4-5", afterOutput: 4, beforeOutput: 1 },
  { name: "openai-chat", model: "openai/gpt-4o", afterOutput: 4, beforeOutput: 1 },
  { name: "openai-responses", model: "openai-responses/gpt-5", afterOutput: 6, beforeOutput: 1 },
  { name: "google", model: "google/gemini-2.5-flash", afterOutput: 2, beforeOutput: 0 },
] as const;

const FAST_RETRY = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 4 };
const ANSWER: ScriptedTurn = { content: [{ type: "text", text: "Hello there friend" }] };

async function run(script: ScriptedTurn[], model: ModelOption, options: Partial<TurnOptions> = {}) {
  const scripted = createScriptedModel({ script });
  const turn = streamTurn(
    { messages: [HELLO] },
    { model, apiKey: "k", fetch: scripted.fetch, retry: FAST_RETRY, ...options },
  );
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  const message = await turn.message;
  const retries = events.filter((event) => event.type === "retry");
  return { message, events, retries, scripted };
}

const HTTP_CASES = [
  { status: 400, tag: "ProviderError", code: "INVALID_REQUEST", retryable: false },
  { status: 401, tag: "ProviderError", code: "AUTH", retryable: false },
  { status: 403, tag: "ProviderError", code: "PERMISSION", retryable: false },
  { status: 404, tag: "ProviderError", code: "MODEL_NOT_FOUND", retryable: false },
  { status: 413, tag: "ProviderError", code: "REQUEST_TOO_LARGE", retryable: false },
  { status: 429, tag: "ProviderError", code: "RATE_LIMITED", retryable: true },
  { status: 500, tag: "ProviderError", code: "SERVER_ERROR", retryable: true },
  { status: 502, tag: "ProviderError", code: "SERVER_ERROR", retryable: true },
  { status: 503, tag: "ProviderError", code: "OVERLOADED", retryable: true },
  { status: 529, tag: "ProviderError", code: "OVERLOADED", retryable: true },
] as const;

for (const { name, model, afterOutput, beforeOutput } of PROVIDERS) {
  describe(`faults through ${name}`, () => {
    for (const expected of HTTP_CASES) {
      it(`HTTP ${expected.status} fails as ${expected.code} after ${expected.retryable ? 2 : 0} retries`, async () => {
        const fault: ScriptedTurn = {
          fault: {
            type: "http",
            status: expected.status,
            message: expected.status === 404 ? "model: nope" : "scripted",
          },
        };
        const { message, retries, scripted } = await run([fault, fault, fault], model);
        expect(message.stopReason).toBe("error");
        expect(message.content).toEqual([]);
        expect(message.error).toMatchObject({
          _tag: expected.tag,
          code: expected.code,
          retryable: expected.retryable,
          status: expected.status,
        });
        expect(retries).toHaveLength(expected.retryable ? 2 : 0);
        expect(scripted.requests).toHaveLength(expected.retryable ? 3 : 1);
      });
    }

    it("a 429 with retry-after is retried after the server's wait and then succeeds", async () => {
      const { message, retries } = await run(
        [{ fault: { type: "http", status: 429, retryAfterMs: 30 } }, ANSWER],
        model,
      );
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({
        attempt: 1,
        delayMs: 30,
        error: { code: "RATE_LIMITED", retryAfterMs: 30 },
      });
      expect(message.stopReason).toBe("complete");
      expect(message.content).toEqual([{ type: "text", text: "Hello there friend" }]);
    });

    it("a retry-after longer than the cap is not waited for: the error reports the wait", async () => {
      const { message, retries } = await run(
        [{ fault: { type: "http", status: 429, retryAfter: 120 } }, ANSWER],
        model,
      );
      expect(retries).toHaveLength(0);
      expect(message.error).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 120_000 });
      expect(message.error?.message).toMatch(
        / — not retried: the server asked to wait 120 s \(retry\.maxRetryAfterMs: 60 s\)$/,
      );
    });

    it("x-should-retry: false stops the retry of a 529", async () => {
      const { message, retries } = await run(
        [{ fault: { type: "http", status: 529, shouldRetry: false } }, ANSWER],
        model,
      );
      expect(retries).toHaveLength(0);
      expect(message.error).toMatchObject({ code: "OVERLOADED", retryable: false });
    });

    it("maxRetries: 0 turns retries off", async () => {
      const { message, retries } = await run([{ fault: { type: "http", status: 503 } }, ANSWER], model, {
        retry: { maxRetries: 0 },
      });
      expect(retries).toHaveLength(0);
      expect(message.stopReason).toBe("error");
    });

    it("a mid-stream error event after output keeps the partial text and is not retried", async () => {
      const { message, retries, events } = await run(
        [{ ...ANSWER, fault: { type: "error-event", afterEvents: afterOutput } }, ANSWER],
        model,
      );
      expect(retries).toHaveLength(0);
      expect(message.stopReason).toBe("error");
      expect(message.error).toMatchObject({ _tag: "ProviderError", retryable: true });
      expect(message.error?.code).toBe(name === "anthropic" ? "OVERLOADED" : "SERVER_ERROR");
      const text = message.content[0];
      expect(
        text?.type === "text" && text.text.length > 0 && "Hello there friend".startsWith(text.text),
      ).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: "error", message });
    });

    it("a mid-stream error event before any output is retried", async () => {
      const { message, retries } = await run(
        [{ ...ANSWER, fault: { type: "error-event", afterEvents: beforeOutput } }, ANSWER],
        model,
      );
      expect(retries).toHaveLength(1);
      expect(message.stopReason).toBe("complete");
      expect(message.content).toEqual([{ type: "text", text: "Hello there friend" }]);
    });

    it("a stream cut without its final event is STREAM_TRUNCATED with the partial text", async () => {
      const { message } = await run(
        [{ ...ANSWER, fault: { type: "truncate", afterEvents: afterOutput } }],
        model,
      );
      expect(message.error).toMatchObject({ _tag: "ParseError", code: "STREAM_TRUNCATED", retryable: true });
      expect(message.stopReason).toBe("error");
      expect(message.content[0]?.type).toBe("text");
    });

    it("a connection reset mid-stream is a NETWORK RequestError with the partial text", async () => {
      const { message } = await run(
        [{ ...ANSWER, fault: { type: "reset", afterEvents: afterOutput } }],
        model,
      );
      expect(message.error).toMatchObject({ _tag: "RequestError", code: "NETWORK", retryable: true });
      expect(message.content[0]?.type).toBe("text");
    });

    it("a stalled stream hits the idle timeout: TIMEOUT, with the partial text", async () => {
      const { message, scripted } = await run(
        [{ ...ANSWER, fault: { type: "stall", afterEvents: afterOutput } }],
        model,
        {
          idleTimeoutMs: 80,
        },
      );
      expect(message.error).toMatchObject({ _tag: "RequestError", code: "TIMEOUT", retryable: true });
      expect(message.error?.message).toContain("80 ms");
      expect(message.content[0]?.type).toBe("text");
      expect(scripted.disconnects).toBe(1);
    });

    it("headers that never come hit the idle timeout and are retried", async () => {
      const { message, retries } = await run([{ ...ANSWER, headersDelayMs: 5_000 }, ANSWER], model, {
        idleTimeoutMs: 60,
      });
      expect(retries).toHaveLength(1);
      expect(retries[0]?.error.code).toBe("TIMEOUT");
      expect(message.stopReason).toBe("complete");
    });

    it("malformed JSON in the stream is STREAM_MALFORMED and keeps what came before", async () => {
      const { message } = await run(
        [{ ...ANSWER, fault: { type: "malformed-json", afterEvents: afterOutput } }],
        model,
      );
      expect(message.error).toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED", retryable: false });
      expect(message.content[0]?.type).toBe("text");
    });

    it("invalid tool-call JSON completes the turn with the raw arguments kept (Gemini: MALFORMED_FUNCTION_CALL)", async () => {
      const { message } = await run(
        [{ content: [{ type: "tool_call", name: "calc", args: '{"a": 1, "b": ' }] }],
        model,
        { retry: { maxRetries: 0 } },
      );
      if (name === "google") {
        expect(message.error).toMatchObject({
          code: "SERVER_ERROR",
          providerCode: "MALFORMED_FUNCTION_CALL",
        });
        return;
      }
      expect(message.stopReason).toBe("toolUse");
      expect(message.content[0]).toMatchObject({
        type: "tool_call",
        name: "calc",
        args: {},
        rawArgs: '{"a": 1, "b": ',
      });
    });
  });
}
