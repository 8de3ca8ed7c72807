/**
 * What the providers' shortcut readers share (src/providers/quick-json.ts): events longer than the
 * reader's limit are left to JSON.parse, which reads long deltas faster, and so a huge delta never
 * meets the engine's limit on a regular expression's backtracking (V8 throws a RangeError on one of 30
 * million characters); and a string a reader gives is a copy, not a slice that would keep the whole
 * network chunk it came in.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { QUICK_ANTHROPIC_MAX_CHARS, quickAnthropicDelta } from "../../src/providers/anthropic/quick-delta.ts";
import { createQuickGeminiReader, QUICK_GEMINI_MAX_CHARS } from "../../src/providers/google/quick-chunk.ts";
import { createQuickChatReader, QUICK_CHAT_MAX_CHARS } from "../../src/providers/openai-chat/quick-chunk.ts";
import {
  QUICK_RESPONSES_MAX_CHARS,
  quickResponsesDelta,
} from "../../src/providers/openai-responses/quick-delta.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Each provider's reader, with an event of its compact form around `text` (a JSON string's inside),
 * and its limit.
 */
const READERS: [string, (data: string) => unknown, (text: string) => string, number][] = [
  [
    "anthropic",
    quickAnthropicDelta,
    (text) => `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}`,
    QUICK_ANTHROPIC_MAX_CHARS,
  ],
  [
    "openai-chat",
    createQuickChatReader(),
    (text) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"${text}"},"logprobs":null,"finish_reason":null}]}`,
    QUICK_CHAT_MAX_CHARS,
  ],
  [
    "openai-responses",
    quickResponsesDelta,
    (text) => `{"type":"response.output_text.delta","item_id":"i","output_index":0,"delta":"${text}"}`,
    QUICK_RESPONSES_MAX_CHARS,
  ],
  [
    "google",
    createQuickGeminiReader(),
    (text) =>
      `{"candidates": [{"content": {"parts": [{"text": "${text}"}],"role": "model"}}],"usageMetadata": {},"modelVersion": "m","responseId": "r"}`,
    QUICK_GEMINI_MAX_CHARS,
  ],
];

describe("the shortcut readers' length limit", () => {
  it.each(READERS)(
    "%s: reads an event as long as its limit, leaves a longer one to JSON.parse",
    (_, read, event, limit) => {
      const frame = event("").length;
      expect(read(event("a".repeat(limit - frame)))).toBeDefined();
      expect(read(event("a".repeat(limit - frame + 1)))).toBeUndefined();
    },
  );

  it.each(READERS)("%s: a delta of 30 million characters is declined, not a RangeError", (_, read, event) => {
    expect(read(event("a\\n".repeat(10_000_000)))).toBeUndefined();
  });
});

describe("the strings the shortcut readers give", () => {
  it.each(READERS)("%s: a kept delta does not keep the text its event was cut from", (_, read, event) => {
    const word = "a long enough word ".repeat(5); // past the length below which engines copy anyway
    const kept: unknown[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 50; index++) {
      // Each event a slice of a fresh 1 MB text, as an event is a slice of its decoded network chunk.
      const chunk = `${"x".repeat(1_000_000)}${index}${event(word)}`;
      const data = chunk.slice(chunk.length - event(word).length);
      const read1 = read(data);
      expect(JSON.stringify(read1)).toContain(word);
      kept.push(read1);
    }
    gc();
    // Slices would keep all 50 chunks (50 MB); copies keep a few kilobytes.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(5_000_000);
    expect(kept).toHaveLength(50);
  });
});
