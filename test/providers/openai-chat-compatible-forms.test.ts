/**
 * Chat Completions as compatible servers send it: reasoning counted beside `completion_tokens` (xAI),
 * content as an array of chunks (Mistral), reasoning only in `reasoning_details` (Snowflake Cortex),
 * and a `finish_reason` that came before an error chunk (OpenRouter). Nothing is dropped, and the
 * usage keeps Wisp's rule that reasoning is part of the output.
 */
import { describe, expect, it } from "vitest";
import { readOpenAIChatUsage } from "../../src/providers/openai-chat/usage.ts";
import { replay } from "../support/replay.ts";

const MODEL = "openai/magistral-medium";
const chunk = (delta: object, finish_reason: string | null = null) => ({
  id: "c1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason }],
});
const sse = (...chunks: object[]) =>
  new TextEncoder().encode(
    `${chunks.map((value) => `data: ${JSON.stringify(value)}\n\n`).join("")}data: [DONE]\n\n`,
  );

describe("usage", () => {
  it("adds reasoning counted beside completion_tokens (total = prompt + completion + reasoning) to output", () => {
    // xAI's grok recording: 12 prompt, 1 completion, 290 reasoning, 303 in total.
    const xai = readOpenAIChatUsage({
      prompt_tokens: 12,
      completion_tokens: 1,
      total_tokens: 303,
      prompt_tokens_details: { cached_tokens: 11 },
      completion_tokens_details: { reasoning_tokens: 290 },
    });
    expect(xai).toEqual({ input: 1, output: 291, cacheRead: 11, cacheWrite: 0, reasoning: 290 });
  });

  it("leaves output alone when completion_tokens already holds the reasoning (OpenAI: total = prompt + completion)", () => {
    const openai = readOpenAIChatUsage({
      prompt_tokens: 24,
      completion_tokens: 1355,
      total_tokens: 1379,
      completion_tokens_details: { reasoning_tokens: 1084 },
    });
    expect(openai).toMatchObject({ input: 24, output: 1355, reasoning: 1084 });
    // Without a total the convention is OpenAI's.
    expect(
      readOpenAIChatUsage({
        prompt_tokens: 3,
        completion_tokens: 9,
        completion_tokens_details: { reasoning_tokens: 4 },
      }),
    ).toMatchObject({ output: 9, reasoning: 4 });
  });
});

describe("content", () => {
  it("reads Mistral's content arrays as reasoning then text, in order", async () => {
    const { message } = await replay(MODEL, [
      sse(
        chunk({
          role: "assistant",
          content: [{ type: "thinking", thinking: [{ type: "text", text: "2+2" }] }],
        }),
        chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: " is 4." }] }] }),
        chunk({ content: [{ type: "text", text: "2 + 2 = 4" }] }),
        chunk({ content: "" }, "stop"),
      ),
    ]);
    expect(message.content).toEqual([
      { type: "thinking", text: "2+2 is 4." },
      { type: "text", text: "2 + 2 = 4" },
    ]);
    expect(message.stopReason).toBe("complete");
  });

  it("keeps a content chunk of a type it does not read as a provider part, in its place", async () => {
    const reference = { type: "reference", reference_ids: [1, 2] };
    const { message } = await replay(MODEL, [
      sse(
        chunk(
          { content: [{ type: "text", text: "See" }, reference, { type: "text", text: " above." }] },
          "stop",
        ),
      ),
    ]);
    expect(message.content).toEqual([
      { type: "text", text: "See" },
      { type: "provider", provider: "openai-chat", block: reference },
      { type: "text", text: " above." },
    ]);
  });

  it("reads reasoning that comes only in reasoning_details, and reads it once when `reasoning` repeats it", async () => {
    const detail = (text: string) => ({
      type: "reasoning.text",
      text,
      format: "anthropic-claude-v1",
      index: 0,
    });
    const onlyDetails = await replay(MODEL, [
      sse(
        chunk({ content: "", reasoning_details: [detail("15 * 27")] }),
        chunk({ content: "", reasoning_details: [detail(" = 405")] }),
        chunk({ content: "405" }, "stop"),
      ),
    ]);
    expect(onlyDetails.message.content).toEqual([
      { type: "thinking", text: "15 * 27 = 405" },
      { type: "text", text: "405" },
    ]);
    const both = await replay(MODEL, [
      sse(
        chunk({ reasoning: "We need", reasoning_details: [detail("We need")] }),
        chunk({ content: "Hi" }, "stop"),
      ),
    ]);
    expect(both.message.content).toEqual([
      { type: "thinking", text: "We need" },
      { type: "text", text: "Hi" },
    ]);
  });
});

it("a finish_reason that came before an error chunk stays the raw stop reason of the failed turn", async () => {
  const { message } = await replay(MODEL, [
    sse(chunk({ reasoning: "We need" }, "length"), {
      ...chunk({ content: "" }),
      error: { code: 400, message: "Token limit reached" },
    }),
  ]);
  expect(message.stopReason).toBe("error");
  expect(message.rawStopReason).toBe("length");
  expect(message.error).toMatchObject({ status: 400, message: "Token limit reached" });
});
