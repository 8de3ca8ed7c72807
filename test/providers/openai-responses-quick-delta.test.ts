/**
 * The Responses delta shortcut (src/providers/openai-responses/quick-delta.ts) reads what the handler
 * would read from JSON.parse: every event it accepts is JSON.parse's object without the fields the
 * handler ignores, and it accepts the text and argument deltas of the recordings, in both orders
 * OpenAI has sent. Crafted near misses and seeded random mutations are either declined or read the same.
 */
import { describe, expect, it, vi } from "vitest";
import {
  QUICK_RESPONSES_TYPES,
  quickResponsesDelta,
} from "../../src/providers/openai-responses/quick-delta.ts";
import * as readers from "../support/quick-readers.ts";

// The reader as the handler calls it: counted, and turned off to make the handler use JSON.parse.
const quick = vi.hoisted(() => ({ off: false, read: 0 }));
vi.mock("../../src/providers/openai-responses/quick-delta.ts", async (original) =>
  (await import("../support/quick-readers.ts")).withSwitch(await original(), "quickResponsesDelta", quick),
);

/** What the handler reads of a delta event: its type, output index and delta. */
function asHandlerReads(parsed: Record<string, unknown>): unknown {
  const { item_id, content_index, sequence_number, obfuscation, logprobs, ...rest } = parsed;
  return rest;
}

const acceptedAsJsonParse = readers.jsonParseCheck(quickResponsesDelta, asHandlerReads);
const recorded = readers.recordedData(
  "openai-responses",
  /"type":"response\.(output_text|function_call_arguments)\.delta"/,
);

/** Every type the reader knows, from its own list: a type it mistook for another would show. */
const TYPES = QUICK_RESPONSES_TYPES.map((name) => `response.${name}.delta`);

describe("quickResponsesDelta", () => {
  it("reads every text and argument delta of the recordings, in each order, as JSON.parse does", () => {
    expect(recorded.length).toBeGreaterThan(20);
    expect(recorded.some((data) => data.includes('"obfuscation"'))).toBe(true);
    expect(recorded.some((data) => !data.includes('"obfuscation"'))).toBe(true);
    for (const data of recorded) expect(acceptedAsJsonParse(data), data).toBe(true);
  });

  it("reads each delta type it knows, in each order, with escapes", () => {
    const orders = [
      (type: string, delta: string) =>
        `{"type":"${type}","content_index":0,"delta":${delta},"item_id":"msg_1","logprobs":[],"obfuscation":"xY","output_index":3,"sequence_number":12}`,
      (type: string, delta: string) =>
        `{"type":"${type}","sequence_number":5,"item_id":"fc_1","output_index":3,"delta":${delta},"obfuscation":"ab"}`,
      (type: string, delta: string) =>
        `{"type":"${type}","item_id":"msg_1","output_index":3,"content_index":0,"delta":${delta}}`,
      (type: string, delta: string) =>
        `{"type":"${type}","item_id":"fc_1","output_index":3,"delta":${delta}}`,
    ];
    for (const order of orders)
      for (const type of TYPES)
        for (const delta of ['"Hi"', '"{\\"a\\":\\u00e9"', '""'])
          expect(acceptedAsJsonParse(order(type, delta)), order(type, delta)).toBe(true);
  });

  it("leaves every other event to JSON.parse", () => {
    const event = `{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":"a"}`;
    const declined = [
      event.replace("output_text", "output_text_annotation"),
      event.replace("output_text.delta", "output_text.done"),
      event.replace('"output_index":0', '"output_index":-1'),
      event.replace('"output_index":0', '"output_index":"0"'),
      event.replace('"output_index":0', '"output_index":1e3'),
      event.replace('"item_id":"msg_1"', '"item_id":"msg\\u0031"'),
      event.replace('"delta":"a"', '"delta":"a\\q"'),
      event.replace('"delta":"a"', '"delta":null'),
      event.replace(/}$/, ',"delta":"b"}'),
      event.replace(/}$/, ',"error":{}}'),
      event.replace('{"type"', '{ "type"'),
      `${event}\n`,
      '{"type":"response.completed","response":{"id":"resp_1"}}',
    ];
    for (const data of declined) expect(quickResponsesDelta(data), data).toBeUndefined();
  });

  it("reads seeded random mutations of real deltas as the handler would, or declines them", () => {
    readers.expectMutationsReadAsJsonParse(acceptedAsJsonParse, recorded, 17);
  });
});

describe("the Responses stream with and without the compact forms", () => {
  it("gives the same events and message whether deltas come compact or with their keys reordered", async () => {
    const compact = (type: string, index: number, delta: string) =>
      `{"type":"${type}","sequence_number":5,"item_id":"x","output_index":${index},"delta":${JSON.stringify(delta)},"obfuscation":"ab"}`;
    const reordered = (type: string, index: number, delta: string) =>
      `{"delta":${JSON.stringify(delta)},"output_index":${index},"type":"${type}"}`;
    const events = (form: typeof compact) => [
      '{"type":"response.created","response":{"id":"resp_1"}}',
      '{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1"}}',
      form("response.output_text.delta", 0, 'Hi "you"'),
      form("response.output_text.delta", 0, " é\n"),
      '{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1"}}',
      '{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"add","arguments":""}}',
      form("response.function_call_arguments.delta", 1, '{"a":'),
      form("response.function_call_arguments.delta", 1, "2}"),
      '{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"add","arguments":"{\\"a\\":2}"}}',
      '{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":3,"output_tokens":4}}}',
    ];
    expect(quickResponsesDelta(reordered("response.output_text.delta", 0, "a"))).toBeUndefined();
    const fast = await readers.turnOf("openai-responses/gpt-5", events(compact));
    expect(fast).toContainEqual(expect.objectContaining({ type: "text-end", text: 'Hi "you" é\n' }));
    expect(fast).toContainEqual(
      expect.objectContaining({ type: "tool-call", toolCall: expect.objectContaining({ args: { a: 2 } }) }),
    );
    expect(await readers.turnOf("openai-responses/gpt-5", events(reordered))).toEqual(fast);
    // The same events read by JSON.parse alone give the same turn, fields the reader leaves out included.
    await readers.expectSameTurnWithoutReader("openai-responses/gpt-5", events(compact), quick, 4);
  });
});
