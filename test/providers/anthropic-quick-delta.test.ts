/**
 * Anthropic's delta shortcut (src/providers/anthropic/quick-delta.ts) reads what JSON.parse reads:
 * every event it accepts is exactly what JSON.parse makes of it, and it accepts the deltas of the real
 * recordings. Crafted near misses and seeded random mutations of real deltas are either declined
 * (left to JSON.parse) or read the same.
 */
import { describe, expect, it, vi } from "vitest";
import { QUICK_ANTHROPIC_MAX_CHARS, quickAnthropicDelta } from "../../src/providers/anthropic/quick-delta.ts";
import * as readers from "../support/quick-readers.ts";

// The reader as the handler calls it: counted, and turned off to make the handler use JSON.parse.
const quick = vi.hoisted(() => ({ off: false, read: 0 }));
vi.mock("../../src/providers/anthropic/quick-delta.ts", async (original) =>
  (await import("../support/quick-readers.ts")).withSwitch(await original(), "quickAnthropicDelta", quick),
);

/** Anthropic's deltas are read whole: what the shortcut gives is JSON.parse's object itself. */
const acceptedAsJsonParse = readers.jsonParseCheck(quickAnthropicDelta);

const deltas = readers.recordedData("anthropic", /"(text|thinking|input_json)_delta"/);
/** The recorded deltas within the reader's limit; the longer ones are JSON.parse's. */
const recorded = deltas.filter((data) => data.length <= QUICK_ANTHROPIC_MAX_CHARS);

describe("quickAnthropicDelta", () => {
  it("reads every text, thinking and argument delta of the recordings, as JSON.parse does", () => {
    expect(recorded.length).toBeGreaterThan(100);
    for (const type of ["text_delta", "thinking_delta", "input_json_delta"])
      expect(recorded.some((data) => data.includes(type))).toBe(true);
    expect(recorded.some((data) => / +}$/.test(data))).toBe(true); // Anthropic's padding
    for (const data of recorded) expect(acceptedAsJsonParse(data), data).toBe(true);
  });

  it("leaves the recorded deltas longer than its limit to JSON.parse", () => {
    const long = deltas.filter((data) => data.length > QUICK_ANTHROPIC_MAX_CHARS);
    expect(long.length).toBeGreaterThan(0);
    for (const data of long) expect(quickAnthropicDelta(data), data).toBeUndefined();
  });

  it("reads strings with escapes, surrogate pairs and empty strings as JSON.parse does", () => {
    const head = '{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":';
    for (const literal of [
      '"a\\"b"',
      '"\\\\"',
      '"\\u0000\\n\\t"',
      '"\\ud83d\\ude00 é 漢"',
      '""',
      '"\\/"',
      '"x" ',
    ]) {
      expect(acceptedAsJsonParse(`${head}${literal}}}`), literal).toBe(true);
    }
  });

  it("leaves anything it is unsure of to JSON.parse", () => {
    const declined = [
      // not the compact form: keys reordered, spaces inside, another event, another delta type
      '{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"a"}}',
      '{"type": "content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"text":"a","type":"text_delta"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","partial_json":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","text":"a"}}',
      // space JSON does not count as whitespace
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}\u00a0}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}\ufeff',
      // an index JSON would refuse or read differently
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":1234567890,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":1.5,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":,"delta":{"type":"text_delta","text":"a"}}',
      // more than one string, another key after it, or not one string at all
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","text":"b"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"index":1}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}},{"x":"y"}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}x',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":1}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":null}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
      // strings JSON refuses: a raw control character, a bad escape, an unended string
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\nb"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\x41"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u12"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}',
      "",
      "{",
    ];
    for (const data of declined) expect(quickAnthropicDelta(data), data).toBeUndefined();
  });

  it("reads seeded random mutations of real deltas exactly as JSON.parse does, or declines them", () => {
    readers.expectMutationsReadAsJsonParse(acceptedAsJsonParse, recorded, 15);
  });
});

describe("the Anthropic stream with and without the compact form", () => {
  it("gives the same events and message whether deltas come compact or reordered (read by JSON.parse)", async () => {
    const compact = (index: number, type: string, field: string, value: string) =>
      `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${JSON.stringify(value)}}}`;
    const reordered = (index: number, type: string, field: string, value: string) =>
      `{"delta":{"${field}":${JSON.stringify(value)},"type":"${type}"},"index":${index},"type":"content_block_delta"}`;
    const events = (delta: typeof compact) => [
      '{"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":3,"output_tokens":1}}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}',
      delta(0, "thinking_delta", "thinking", 'Let me "think"\n'),
      '{"type":"content_block_stop","index":0}',
      '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}',
      delta(1, "text_delta", "text", "Hello, "),
      delta(1, "text_delta", "text", "wörld \ud83d\ude00"),
      '{"type":"content_block_stop","index":1}',
      '{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"add","input":{}}}',
      delta(2, "input_json_delta", "partial_json", '{"a":'),
      delta(2, "input_json_delta", "partial_json", '1,"b":"\\"2\\""}'),
      '{"type":"content_block_stop","index":2}',
      '{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}',
      '{"type":"message_stop"}',
    ];
    expect(quickAnthropicDelta(reordered(0, "text_delta", "text", "x"))).toBeUndefined();
    const fast = await readers.turnOf("anthropic/claude-sonnet-4-5", events(compact));
    expect(fast).toContainEqual(
      expect.objectContaining({ type: "text-end", text: "Hello, wörld \ud83d\ude00" }),
    );
    expect(fast).toContainEqual(
      expect.objectContaining({
        type: "tool-call",
        toolCall: expect.objectContaining({ args: { a: 1, b: '"2"' } }),
      }),
    );
    expect(await readers.turnOf("anthropic/claude-sonnet-4-5", events(reordered))).toEqual(fast);
    // The same events read by JSON.parse alone give the same turn, fields the reader leaves out included.
    await readers.expectSameTurnWithoutReader("anthropic/claude-sonnet-4-5", events(compact), quick, 5);
  });
});
