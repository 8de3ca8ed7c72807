/**
 * Every Chat Completions recording in ../shared/fixtures/openai-chat and openai-compatible replays to
 * the right normalized message (or the right typed error), whole and re-chunked at random byte
 * boundaries. Expected values were read off the recordings.
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage, TextPart, ThinkingPart } from "../../src/index.ts";
import { fixtureBytes, rechunk } from "../support/fixtures.ts";
import { replay } from "../support/replay.ts";
import { itReplaysRecordings, type RecordingCase } from "../support/replay-cases.ts";

const text = (message: AssistantMessage) =>
  (message.content.filter((part) => part.type === "text") as TextPart[]).map((part) => part.text).join("");
const thinking = (message: AssistantMessage) =>
  (message.content.filter((part) => part.type === "thinking") as ThinkingPart[])
    .map((part) => part.text)
    .join("");

const cases: RecordingCase[] = [
  {
    file: "openai-chat/text-include-usage.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: '"This is a test."' }]);
      expect(message.stopReason).toBe("complete");
      expect(message.rawStopReason).toBe("stop");
      expect(message.responseId).toBe("chatcmpl-ASYMZ4oSykiIFK4lXLReDiKyAjsQl");
      expect(message.usage).toMatchObject({ input: 12, output: 5, cacheRead: 0, reasoning: 0 });
    },
  },
  {
    file: "openai-chat/text-no-usage.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "This is a test." }]);
      expect(message.usage).toMatchObject({ input: 0, output: 0 });
      expect(message.stopReason).toBe("complete");
    },
  },
  {
    file: "openai-chat/parallel-tool-calls-include-usage.sse",
    check(message) {
      expect(message.content).toEqual([
        {
          type: "tool_call",
          id: "call_fHCjJqt9Pysde6vcJcvbXGBx",
          name: "get_current_weather",
          args: { location: "Seattle, WA" },
        },
        {
          type: "tool_call",
          id: "call_3J9foSw3CUb48lrqIXoTky6U",
          name: "get_current_weather",
          args: { location: "San Francisco, CA" },
        },
      ]);
      expect(message.stopReason).toBe("toolUse");
      expect(message.rawStopReason).toBe("tool_calls");
      expect(message.usage).toMatchObject({ input: 75, output: 51 });
      // gpt-4o-mini at $0.15 / $0.60 per million tokens.
      expect(message.usage.costUsd).toBeCloseTo((75 * 0.15 + 51 * 0.6) / 1e6, 12);
    },
  },
  {
    file: "openai-chat/n2-multiple-choices.sse",
    check(message) {
      // Only choice 0 is read; choice 1's chunks interleave and are ignored.
      expect(
        text(message).startsWith("I'm unable to provide real-time weather updates. To get the latest"),
      ).toBe(true);
      expect(text(message)).toHaveLength(277);
      expect(message.usage).toMatchObject({ input: 26, output: 104 });
    },
  },
  {
    file: "openai-chat/tool-call-obfuscation.sse",
    check(message) {
      expect(message.content).toEqual([
        {
          type: "tool_call",
          id: "call_ZR5UUuTt3pf61kjwAJIYdVMj",
          name: "get_capital",
          args: { country: "UK" },
        },
      ]);
      expect(message.stopReason).toBe("toolUse");
      expect(message.usage).toMatchObject({ input: 53, output: 15 });
    },
  },
  {
    file: "openai-chat/text-after-tool-result-obfuscation.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "The capital of the UK is London." }]);
      expect(message.usage).toMatchObject({ input: 78, output: 9 });
    },
  },
  {
    file: "openai-compatible/deepseek-reasoning-content.sse",
    check(message) {
      expect(message.content.map((part) => part.type)).toEqual(["thinking", "text"]);
      expect(thinking(message).startsWith('Hmm, the user just said "Hello".')).toBe(true);
      expect(thinking(message)).toHaveLength(882);
      expect(text(message)).toBe("Hello there! 😊 How can I help you today?");
      expect(message.usage).toMatchObject({ input: 6, output: 212, reasoning: 198, cacheRead: 0 });
      expect(message.responseId).toBe("33be18fc-3842-486c-8c29-dd8e578f7f20");
    },
  },
  {
    file: "openai-compatible/zai-reasoning-content.sse",
    check(message) {
      expect(thinking(message)).toHaveLength(2173);
      expect(text(message)).toBe("4");
      expect(message.usage).toMatchObject({ input: 13, output: 564, reasoning: 561 });
      expect(message.stopReason).toBe("complete");
    },
  },
  {
    file: "openai-compatible/openrouter-comments-reasoning.sse",
    check(message) {
      expect(thinking(message)).toBe("This is a simple arithmetic question. 2+2 equals 4.");
      const part = message.content[0] as ThinkingPart;
      expect(
        part.signature?.startsWith("Et0BCkgIChACGAIqQA2s7h7tA7IG35fbwVkou9PM2hANVJNUwcEM4q12fTRDK6y3v6Y"),
      ).toBe(true);
      expect(text(message)).toBe("2 + 2 = 4");
      // OpenRouter reports the cost itself; it wins over the price table.
      expect(message.usage).toMatchObject({ input: 43, output: 36, reasoning: 13, costUsd: 0.000669 });
    },
  },
];

describe("OpenAI Chat Completions and compatible recordings", () => {
  itReplaysRecordings("openai/gpt-4o-mini", cases, [11, 12, 13]);

  it("Groq's event: error inside a 200 stream ends the turn with a typed error and keeps the reasoning", async () => {
    for (const chunks of [
      [fixtureBytes("openai-compatible/groq-event-error-midstream.sse")],
      rechunk(fixtureBytes("openai-compatible/groq-event-error-midstream.sse"), 5, 30),
    ]) {
      const { message, events } = await replay("openai/openai/gpt-oss-120b", chunks);
      expect(message.stopReason).toBe("error");
      expect(message.error).toMatchObject({
        _tag: "ProviderError",
        code: "INVALID_REQUEST",
        providerCode: "tool_use_failed",
        status: 400,
        retryable: false,
      });
      expect(message.error?.message.startsWith("Tool call validation failed")).toBe(true);
      expect(
        thinking(message).startsWith("We need to call the tool with invalid parameters first, then"),
      ).toBe(true);
      expect(thinking(message)).toHaveLength(412);
      expect(events.at(-1)?.type).toBe("error");
    }
  });

  it("OpenRouter's error chunk after comments ends the turn with a typed error and the partial reasoning", async () => {
    const { message } = await replay("openai/minimax/minimax-m2:free", [
      fixtureBytes("openai-compatible/openrouter-error-chunk-midstream.sse"),
    ]);
    expect(message.stopReason).toBe("error");
    expect(message.error).toMatchObject({
      _tag: "ProviderError",
      status: 400,
      message: "Token limit reached",
    });
    expect(thinking(message)).toBe("We need to respond to a greeting. The user");
  });
});
