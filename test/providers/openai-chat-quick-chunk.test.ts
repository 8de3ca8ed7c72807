/**
 * The Chat Completions chunk shortcut (src/providers/openai-chat/quick-chunk.ts) reads what the handler
 * would read from JSON.parse: every chunk it accepts is JSON.parse's object without fields the handler
 * ignores (or that are null), and it accepts the content and argument chunks of OpenAI's recordings.
 * Crafted near misses and seeded random mutations are either declined or read the same.
 */
import { describe, expect, it, vi } from "vitest";
import { createQuickChatReader } from "../../src/providers/openai-chat/quick-chunk.ts";
import * as readers from "../support/quick-readers.ts";

// The reader as the handler calls it: counted, and turned off to make the handler use JSON.parse.
const quick = vi.hoisted(() => ({ off: false, read: 0 }));
vi.mock("../../src/providers/openai-chat/quick-chunk.ts", async (original) =>
  (await import("../support/quick-readers.ts")).withSwitch(await original(), "createQuickChatReader", quick),
);

/** What the handler reads of a parsed chunk: fields it never reads, and nulls, left out. */
function asHandlerReads(parsed: Record<string, unknown>): unknown {
  const { object, created, model, service_tier, system_fingerprint, obfuscation, ...rest } = parsed;
  if (rest.usage === null) delete rest.usage;
  const choices = rest.choices as Record<string, unknown>[];
  for (const choice of Array.isArray(choices) ? choices : []) {
    if (choice.logprobs === null) delete choice.logprobs;
    if (choice.finish_reason === null) delete choice.finish_reason;
  }
  return rest;
}

/** One reader for the whole file: the id it caches from chunk to chunk is checked as it changes. */
const quickChatChunk = createQuickChatReader();
const acceptedAsJsonParse = readers.jsonParseCheck(quickChatChunk, asHandlerReads);

const recorded = readers.recordedData("openai-chat", /"chat\.completion\.chunk"/);
const deltas = recorded.filter((data) =>
  /"choices":\[\{"index":0,"delta":\{"(content":"|tool_calls":\[\{"index":\d+,"function":\{"arguments")/.test(
    data,
  ),
);
const head =
  '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","system_fingerprint":null,';
const chunk = (delta: string, tail = "") =>
  `${head}"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":null}]${tail}}`;

describe("createQuickChatReader", () => {
  it("reads every content and argument chunk of OpenAI's recordings, as JSON.parse does", () => {
    expect(deltas.length).toBeGreaterThan(50);
    expect(deltas.some((data) => data.includes('"obfuscation"'))).toBe(true);
    expect(deltas.some((data) => data.includes('"service_tier"'))).toBe(true);
    expect(deltas.some((data) => data.includes('"tool_calls"'))).toBe(true);
    for (const data of deltas) expect(acceptedAsJsonParse(data), data).toBe(true);
  });

  it("reads escapes and empty strings as JSON.parse does", () => {
    for (const text of ['"a\\"b"', '"\\u00e9\\ud83d\\ude00"', '""', '"\\n"']) {
      expect(acceptedAsJsonParse(chunk(`{"content":${text}}`)), text).toBe(true);
      expect(
        acceptedAsJsonParse(chunk(`{"tool_calls":[{"index":2,"function":{"arguments":${text}}}]}`)),
      ).toBe(true);
    }
  });

  it("leaves every other chunk to JSON.parse", () => {
    const declined = [
      chunk('{"content":"a","refusal":"b"}'),
      chunk('{"role":"assistant","content":"a"}'),
      chunk('{"content":null,"reasoning_content":"a"}'),
      chunk('{"content":"a"}', ',"usage":{"prompt_tokens":1}'),
      chunk('{"content":"a"}', ',"error":{"message":"x"}'),
      chunk('{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":""}}]}'),
      chunk(
        '{"tool_calls":[{"index":0,"function":{"arguments":"a"}},{"index":1,"function":{"arguments":"b"}}]}',
      ),
      chunk('{"tool_calls":[{"index":01,"function":{"arguments":"a"}}]}'),
      chunk('{"content":"a\\x"}'),
      chunk('{"content":"a\tb"}'),
      chunk('{"content":"a"}').replace('"finish_reason":null', '"finish_reason":"stop"'),
      chunk('{"content":"a"}').replace('"index":0', '"index":1'),
      chunk('{"content":"a"}').replace('"created":1', '"created":01'),
      chunk('{"content":"a"}').replace('"model":"gpt-4o"', '"model":"gpt-\\u0034o"'),
      chunk('{"content":"a"}').replace('"id":"chatcmpl-1"', '"id":"a\nb"'),
      chunk('{"content":"a"}').replace(/}$/, ',"id":"other"}'),
      chunk('{"content":"a"}').replace("chat.completion.chunk", "chat.completion"),
      `${chunk('{"content":"a"}')} x`,
    ];
    for (const data of declined) expect(quickChatChunk(data), data).toBeUndefined();
  });

  it("reads seeded random mutations of real chunks as the handler would, or declines them", () => {
    readers.expectMutationsReadAsJsonParse(acceptedAsJsonParse, deltas, 16);
  });
});

describe("the Chat Completions stream with and without the compact form", () => {
  it("gives the same events and message whether chunks come compact or with their keys reordered", async () => {
    const compact = (delta: string) => chunk(delta, ',"usage":null');
    const reordered = (delta: string) =>
      `{"choices":[{"finish_reason":null,"delta":${delta},"index":0}],"model":"gpt-4o","id":"chatcmpl-1","object":"chat.completion.chunk","created":1}`;
    // A compact chunk first, so that the id the handler keeps comes from one the reader read.
    const events = (form: (delta: string) => string) => [
      form('{"content":"Hi \\"there\\""}'),
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
      form('{"content":""}'),
      form('{"content":" wörld"}'),
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":""}}]},"finish_reason":null}]}',
      form('{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\":"}}]}'),
      form('{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}'),
      form('{"tool_calls":[{"index":3,"function":{"arguments":"{}"}}]}'),
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
      "[DONE]",
    ];
    expect(quickChatChunk(reordered('{"content":"a"}'))).toBeUndefined();
    const fast = await readers.turnOf("openai/gpt-4o", events(compact));
    expect(fast).toContainEqual(expect.objectContaining({ type: "text-end", text: 'Hi "there" wörld' }));
    expect(fast).toContainEqual(
      expect.objectContaining({
        type: "tool-call",
        toolCall: expect.objectContaining({ id: "call_1", args: { a: 1 } }),
      }),
    );
    expect(fast).toContainEqual(
      expect.objectContaining({
        type: "tool-call",
        toolCall: expect.objectContaining({ id: "call_(generated)", args: {} }),
      }),
    );
    expect(await readers.turnOf("openai/gpt-4o", events(reordered))).toEqual(fast);
    // The same events read by JSON.parse alone give the same turn, fields the reader leaves out included.
    await readers.expectSameTurnWithoutReader("openai/gpt-4o", events(compact), quick, 6);
  });
});
