/**
 * The Anthropic delta shortcut (src/providers/anthropic/quick-delta.ts) reads what JSON.parse reads:
 * every delta it accepts parses, with JSON.parse, to exactly the event it reports, and it accepts the
 * deltas of the real recordings. Crafted near misses and seeded random mutations of real deltas are
 * either declined (left to JSON.parse) or read the same.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { quickDelta } from "../../src/providers/anthropic/quick-delta.ts";
import { streamTurn } from "../../src/stream/stream-turn.ts";
import { FIXTURES, fixtureText, seededRandom } from "../support/fixtures.ts";

const FIELD = { text_delta: "text", thinking_delta: "thinking", input_json_delta: "partial_json" } as const;

/** Throws unless `data`, when the shortcut accepts it, is that very event to JSON.parse. */
function expectSameAsJsonParse(data: string): boolean {
  const quick = quickDelta(data);
  if (quick === undefined) return false;
  expect(JSON.parse(data), data).toStrictEqual({
    type: "content_block_delta",
    index: Number(quick.key),
    delta: { type: quick.kind, [FIELD[quick.kind]]: quick.value },
  });
  expect(String(Number(quick.key))).toBe(quick.key);
  return true;
}

/** The `data:` lines of every Anthropic recording that are text, thinking or argument deltas. */
const recordedDeltas = readdirSync(`${FIXTURES}anthropic`)
  .filter((file) => file.endsWith(".sse"))
  .flatMap((file) => fixtureText(`anthropic/${file}`).split(/\r?\n/))
  .filter((line) => line.startsWith("data: ") && /"(text|thinking|input_json)_delta"/.test(line))
  .map((line) => line.slice("data: ".length));

describe("quickDelta", () => {
  it("reads every text, thinking and argument delta of the recordings, as JSON.parse does", () => {
    expect(recordedDeltas.length).toBeGreaterThan(100);
    expect(recordedDeltas.some((data) => data.includes("thinking_delta"))).toBe(true);
    expect(recordedDeltas.some((data) => data.includes("input_json_delta"))).toBe(true);
    expect(recordedDeltas.some((data) => / +}$/.test(data))).toBe(true); // Anthropic's padding
    for (const data of recordedDeltas) expect(expectSameAsJsonParse(data), data).toBe(true);
  });

  it("reads strings with escapes, surrogate pairs and empty strings as JSON.parse does", () => {
    const head = '{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":';
    for (const literal of ['"a\\"b"', '"\\\\"', '"\\u0000\\n\\t"', '"\\ud83d\\ude00 é 漢"', '""', '"x" ']) {
      expect(expectSameAsJsonParse(`${head}${literal}}}`), literal).toBe(true);
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
    for (const data of declined) expect(quickDelta(data), data).toBeUndefined();
  });

  it("reads seeded random mutations of real deltas exactly as JSON.parse does, or declines them", () => {
    const random = seededRandom(15);
    const alphabet = ['"', "\\", "}", "{", " ", ",", ":", "0", "1", "a", "u", "\n", "é", "\ud83d", "]"];
    let accepted = 0;
    let declined = 0;
    for (let round = 0; round < 20_000; round++) {
      let data = recordedDeltas[Math.floor(random() * recordedDeltas.length)] as string;
      for (let edit = 1 + Math.floor(random() * 2); edit > 0; edit--) {
        const at = Math.floor(random() * (data.length + 1));
        const char = alphabet[Math.floor(random() * alphabet.length)] as string;
        const kind = random();
        if (kind < 0.4) data = data.slice(0, at) + char + data.slice(at);
        else if (kind < 0.7) data = data.slice(0, at) + data.slice(at + 1);
        else data = data.slice(0, at) + char + data.slice(at + 1);
      }
      if (expectSameAsJsonParse(data)) accepted++;
      else declined++;
    }
    // Both sides are exercised: mutations inside the string are read, the others declined.
    expect(accepted).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(1000);
  });
});

describe("the Anthropic stream with and without the shortcut's form", () => {
  it("gives the same message whether deltas come compact or reordered (read by JSON.parse)", async () => {
    const compact = (index: number, type: string, field: string, value: string) =>
      `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${JSON.stringify(value)}}}`;
    const reordered = (index: number, type: string, field: string, value: string) =>
      `{"delta":{"${field}":${JSON.stringify(value)},"type":"${type}"},"index":${index},"type":"content_block_delta"}`;
    const body = (delta: typeof compact) =>
      [
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
      ]
        .map((data) => `data: ${data}\n\n`)
        .join("");
    const messageOf = async (text: string) => {
      const turn = streamTurn(
        { messages: [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }] },
        {
          model: "anthropic/claude-sonnet-4-5",
          apiKey: "k",
          fetch: async () => new Response(text, { headers: { "content-type": "text/event-stream" } }),
        },
      );
      const { id, timestamp, ...message } = await turn.message;
      return message;
    };
    expect(quickDelta(reordered(0, "text_delta", "text", "x"))).toBeUndefined();
    const fast = await messageOf(body(compact));
    expect(fast.content).toEqual([
      { type: "thinking", text: 'Let me "think"\n' },
      { type: "text", text: "Hello, wörld \ud83d\ude00" },
      { type: "tool_call", id: "toolu_1", name: "add", args: { a: 1, b: '"2"' } },
    ]);
    expect(await messageOf(body(reordered))).toEqual(fast);
  });
});
