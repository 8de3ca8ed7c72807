/**
 * What the providers' shortcut readers share (src/providers/quick-json.ts): events longer than
 * MAX_QUICK_CHARS are left to JSON.parse, so that a huge delta never meets the engine's limit on a
 * regular expression's backtracking (V8 throws a RangeError on one of 30 million characters).
 */
import { describe, expect, it } from "vitest";
import { quickAnthropicDelta } from "../../src/providers/anthropic/quick-delta.ts";
import { createQuickGeminiReader } from "../../src/providers/google/quick-chunk.ts";
import { quickChatChunk } from "../../src/providers/openai-chat/quick-chunk.ts";
import { quickResponsesDelta } from "../../src/providers/openai-responses/quick-delta.ts";
import { MAX_QUICK_CHARS } from "../../src/providers/quick-json.ts";

/** Each provider's reader, with an event of its compact form around `text` (a JSON string's inside). */
const READERS: [string, (data: string) => unknown, (text: string) => string][] = [
  [
    "anthropic",
    quickAnthropicDelta,
    (text) => `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}`,
  ],
  [
    "openai-chat",
    quickChatChunk,
    (text) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"${text}"},"logprobs":null,"finish_reason":null}]}`,
  ],
  [
    "openai-responses",
    quickResponsesDelta,
    (text) => `{"type":"response.output_text.delta","item_id":"i","output_index":0,"delta":"${text}"}`,
  ],
  [
    "google",
    createQuickGeminiReader(),
    (text) =>
      `{"candidates": [{"content": {"parts": [{"text": "${text}"}],"role": "model"}}],"usageMetadata": {},"modelVersion": "m","responseId": "r"}`,
  ],
];

describe("the shortcut readers' length limit", () => {
  it.each(READERS)(
    "%s: reads an event of MAX_QUICK_CHARS, leaves a longer one to JSON.parse",
    (_, read, event) => {
      const frame = event("").length;
      expect(read(event("a".repeat(MAX_QUICK_CHARS - frame)))).toBeDefined();
      expect(read(event("a".repeat(MAX_QUICK_CHARS - frame + 1)))).toBeUndefined();
    },
  );

  it.each(READERS)("%s: a delta of 30 million characters is declined, not a RangeError", (_, read, event) => {
    expect(read(event("a\\n".repeat(10_000_000)))).toBeUndefined();
  });
});
