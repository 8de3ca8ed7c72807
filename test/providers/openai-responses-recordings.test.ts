/**
 * Every OpenAI Responses recording in ../shared/fixtures/openai-responses replays to the right
 * normalized message (or the right typed error), whole and re-chunked at random byte boundaries, and
 * the endings no recording holds (incomplete, failed, refusal, cut off) come out right. Expected
 * values were read off the recordings.
 */
import { describe, expect, it } from "vitest";
import { chunksToSse, fixtureJson } from "../support/fixtures.ts";
import { replay, replayError } from "../support/replay.ts";
import { itReplaysRecordings, type RecordingCase } from "../support/replay-cases.ts";

const MODEL = "openai-responses/gpt-5";
const sse = (...events: object[]) =>
  new TextEncoder().encode(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""));

const cases: RecordingCase[] = [
  {
    file: "openai-responses/text-simple.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "Hi! How can I assist you today?" }]);
      expect(message.stopReason).toBe("complete");
      expect(message.responseId).toBe("resp_0b1fe82eb73ff7c40069e2f3f8806c8196b5b50b51f2e1455b");
      expect(message.usage).toMatchObject({ input: 20, output: 10, cacheRead: 0, reasoning: 0 });
    },
  },
  {
    file: "openai-responses/function-call.sse",
    check(message) {
      expect(message.content).toEqual([
        {
          type: "tool_call",
          id: "call_kL0PCQV7M2WMoVX8V8OtYSAL",
          name: "get_capital",
          args: { country: "France" },
        },
      ]);
      expect(message.stopReason).toBe("toolUse");
      expect(message.usage).toMatchObject({ input: 255, output: 16 });
    },
  },
  {
    file: "openai-responses/reasoning-then-function-call.sse",
    check(message) {
      const [reasoning, call] = message.content;
      expect(reasoning).toMatchObject({ type: "thinking", text: "" });
      const item = JSON.parse(reasoning?.type === "thinking" ? (reasoning.signature ?? "") : "");
      expect(item).toMatchObject({
        id: "rs_0050471a34b36ae60068c97bac4dcc819595fd0f80d6b3c405",
        type: "reasoning",
      });
      expect(item.encrypted_content).toMatch(/^gAAAAABoyXvx/); // the item as done, verbatim
      expect(call).toEqual({
        type: "tool_call",
        id: "call_CWXgs68YprAjp6t0371hiPOI",
        name: "final_result",
        args: { result: 6666 },
      });
      expect(message.usage).toMatchObject({ input: 53, output: 469, reasoning: 448 });
      expect(message.stopReason).toBe("toolUse");
    },
  },
  {
    file: "openai-responses/text-after-function-output.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "The capital of France is Paris." }]);
      expect(message.usage).toMatchObject({ input: 278, output: 9 });
    },
  },
];

describe("OpenAI Responses recordings", () => {
  itReplaysRecordings(MODEL, cases, [1, 2, 3, 4, 5]);

  it("an error event (its payload nested under error) ends the turn with that error, not response.failed's", async () => {
    const { message, events } = await replay(MODEL, [
      chunksToSse("openai-responses/error-event-then-response-failed.chunks.jsonl"),
    ]);
    expect(message.error).toMatchObject({
      code: "QUOTA_EXCEEDED",
      providerCode: "insufficient_quota",
      retryable: false,
    });
    expect(message.stopReason).toBe("error");
    expect(events.at(-1)?.type).toBe("error");
  });

  it("a 400 model_not_found body is MODEL_NOT_FOUND, not retried", async () => {
    const recorded = fixtureJson<{ response: { body: unknown } }>(
      "openai-responses/error-400-model_not_found.json",
    );
    const message = await replayError(MODEL, recorded.response.body, 400);
    expect(message.error).toMatchObject({ code: "MODEL_NOT_FOUND", status: 400, retryable: false });
  });

  it("an error event with its fields at the top level (the SDK's type) classifies too", async () => {
    const { message } = await replay(MODEL, [
      sse({ type: "error", code: "rate_limit_exceeded", message: "Slow down", param: null }),
    ]);
    expect(message.error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
  });

  it("response.incomplete maps max_output_tokens and content_filter", async () => {
    for (const [reason, stop] of [
      ["max_output_tokens", "maxTokens"],
      ["content_filter", "refusal"],
    ]) {
      const { message } = await replay(MODEL, [
        sse(
          { type: "response.output_item.added", output_index: 0, item: { type: "message", id: "msg_1" } },
          { type: "response.output_text.delta", output_index: 0, item_id: "msg_1", delta: "Half a" },
          { type: "response.incomplete", response: { id: "resp_1", incomplete_details: { reason } } },
        ),
      ]);
      expect(message.stopReason).toBe(stop);
      expect(message.rawStopReason).toBe(reason);
      expect(message.content).toEqual([{ type: "text", text: "Half a" }]);
    }
  });

  it("response.failed is a typed error; a refusal is a refusal; a stream with no end is truncated", async () => {
    const failed = await replay(MODEL, [
      sse({ type: "response.failed", response: { error: { code: "server_error", message: "Boom" } } }),
    ]);
    expect(failed.message.error).toMatchObject({ code: "SERVER_ERROR", retryable: true });

    const refusal = await replay(MODEL, [
      sse(
        { type: "response.refusal.delta", output_index: 0, delta: "I can't help with that." },
        {
          type: "response.completed",
          response: { id: "resp_2", usage: { input_tokens: 5, output_tokens: 6 } },
        },
      ),
    ]);
    expect(refusal.message.stopReason).toBe("refusal");

    const cut = await replay(MODEL, [
      sse({ type: "response.output_text.delta", output_index: 0, delta: "Hel" }),
    ]);
    expect(cut.message.error).toMatchObject({ code: "STREAM_TRUNCATED" });
    expect(cut.message.content).toEqual([{ type: "text", text: "Hel" }]);
  });
});

it("a reasoning summary that arrives only with the finished item is shown as the thinking text", async () => {
  const item = {
    id: "rs_1",
    type: "reasoning",
    summary: [
      { type: "summary_text", text: "First." },
      { type: "summary_text", text: "Second." },
    ],
    encrypted_content: "gAAAA",
  };
  const { message } = await replay("openai-responses/gpt-5", [
    new TextEncoder().encode(
      [
        { type: "response.output_item.added", output_index: 0, item: { ...item, summary: [] } },
        { type: "response.output_item.done", output_index: 0, item },
        { type: "response.completed", response: { id: "resp_1" } },
      ]
        .map((event) => `data: ${JSON.stringify(event)}\n\n`)
        .join(""),
    ),
  ]);
  expect(message.content).toEqual([
    { type: "thinking", text: "First.\n\nSecond.", signature: JSON.stringify(item) },
  ]);
});
