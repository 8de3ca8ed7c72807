/**
 * The Gemini chunk shortcut (src/providers/google/quick-chunk.ts) reads what the handler would read
 * from JSON.parse: every chunk it accepts is JSON.parse's object without the fields the handler
 * ignores, and it accepts the text and thought chunks of the recordings. Crafted near misses and
 * seeded random mutations are either declined or read the same, also when a usage snapshot repeats.
 */
import { describe, expect, it, vi } from "vitest";
import { createQuickGeminiReader } from "../../src/providers/google/quick-chunk.ts";
import * as readers from "../support/quick-readers.ts";

// The reader as the handler calls it: counted, and turned off to make the handler use JSON.parse.
const quick = vi.hoisted(() => ({ off: false, read: 0 }));
vi.mock("../../src/providers/google/quick-chunk.ts", async (original) =>
  (await import("../support/quick-readers.ts")).withSwitch(
    await original(),
    "createQuickGeminiReader",
    quick,
  ),
);

/** What the handler reads of a chunk: candidate 0's parts, the usage and the response id. */
function asHandlerReads(parsed: Record<string, unknown>): unknown {
  const { modelVersion, ...rest } = parsed;
  const [candidate] = rest.candidates as { content: Record<string, unknown>; index?: number }[];
  if (candidate !== undefined) {
    delete candidate.index;
    delete candidate.content.role;
  }
  return rest;
}

const recorded = readers.recordedData(
  "gemini",
  /^data: \{"candidates": \[\{"content": \{"parts": \[\{"text"/,
);
const chunk = (part: string, usage = '{"promptTokenCount": 15,"totalTokenCount": 15}') =>
  `{"candidates": [{"content": {"parts": [${part}],"role": "model"},"index": 0}],"usageMetadata": ${usage},"modelVersion": "gemini-2.5-flash","responseId": "r1"}`;

describe("createQuickGeminiReader", () => {
  it("reads the text and thought chunks of the recordings as JSON.parse does", () => {
    const accepted = readers.jsonParseCheck(createQuickGeminiReader(), asHandlerReads);
    expect(recorded.filter((data) => accepted(data)).length).toBeGreaterThan(20);
    expect(recorded.some((data) => data.includes('"thought": true') && accepted(data))).toBe(true);
    // Not read here: a chunk that also ends the turn or carries a signature.
    for (const data of recorded.filter((data) => !/"finishReason"|"thoughtSignature"/.test(data)))
      expect(accepted(data), data).toBe(true);
  });

  it("reads usage snapshots as JSON.parse does, whether one repeats or changes", () => {
    const accepted = readers.jsonParseCheck(createQuickGeminiReader(), asHandlerReads);
    const usages = [
      '{"promptTokenCount": 15,"totalTokenCount": 15}',
      '{"promptTokenCount": 15,"totalTokenCount": 15}',
      '{"promptTokenCount": 15,"candidatesTokenCount": 4,"totalTokenCount": 19,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 15},{"modality": "IMAGE","tokenCount": 0}]}',
      "{}",
      '{"promptTokenCount": 15,"totalTokenCount": 15}',
    ];
    for (const usage of usages) expect(accepted(chunk('{"text": "a\\"b"}', usage)), usage).toBe(true);
  });

  it("leaves every other chunk to JSON.parse", () => {
    const read = createQuickGeminiReader();
    const declined = [
      chunk('{"text": "a"},{"text": "b"}'),
      chunk('{"text": "a","thoughtSignature": "c2ln"}'),
      chunk('{"text": "a","thought": false}'),
      chunk('{"functionCall": {"name": "f","args": {}}}'),
      chunk('{"text": "a"}').replace('"index": 0}', '"index": 0,"finishReason": "STOP"}'),
      chunk('{"text": "a"}').replace('"index": 0', '"index": 1'),
      chunk('{"text": "a"}', '{"promptTokenCount": 15,}'),
      chunk('{"text": "a"}', '{"promptTokenCount": 1 5}'),
      chunk('{"text": "a"}', '{"promptTokenCount": "\\u0031"}'),
      chunk('{"text": "a"}', '{"promptTokensDetails": [{"modality": {"x": 1}}]}'),
      chunk('{"text": "a"}').replace('"responseId": "r1"', '"responseId": "r1","error": {}'),
      chunk('{"text": "a\u0001"}'),
      chunk('{"text": "a"}').replace('{"candidates": ', '{"candidates":'),
    ];
    for (const data of declined) expect(read(data), data).toBeUndefined();
  });

  it("reads seeded random mutations of real chunks as the handler would, or declines them", () => {
    const accepted = readers.jsonParseCheck(createQuickGeminiReader(), asHandlerReads);
    readers.expectMutationsReadAsJsonParse(accepted, recorded, 18);
  });
});

describe("the Gemini stream with and without the compact form", () => {
  it("gives the same events and message whether chunks come as Gemini sends them or reordered", async () => {
    const usage = (output: number) =>
      `{"promptTokenCount": 15,"candidatesTokenCount": ${output},"totalTokenCount": ${15 + output}}`;
    const sent = (part: string, output: number) => chunk(part, usage(output));
    const reordered = (part: string, output: number) =>
      `{"responseId": "r1","usageMetadata": ${usage(output)},"candidates": [{"content": {"role": "model","parts": [${part}]}}]}`;
    const events = (form: typeof sent) => [
      form('{"text": "Let me think","thought": true}', 1),
      form('{"text": "Hi \\"you\\""}', 3),
      form('{"text": " é\\n"}', 3),
      form('{"text": "!"}', 4),
      `{"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP"}],"usageMetadata": ${usage(4)},"responseId": "r1"}`,
    ];
    expect(createQuickGeminiReader()(reordered('{"text": "a"}', 1))).toBeUndefined();
    const fast = await readers.turnOf("google/gemini-2.5-flash", events(sent));
    expect(fast).toContainEqual(expect.objectContaining({ type: "text-end", text: 'Hi "you" é\n!' }));
    expect(fast).toContainEqual(
      expect.objectContaining({ type: "usage", usage: expect.objectContaining({ output: 4 }) }),
    );
    expect(await readers.turnOf("google/gemini-2.5-flash", events(reordered))).toEqual(fast);
    // The same events read by JSON.parse alone give the same turn, fields the reader leaves out included.
    await readers.expectSameTurnWithoutReader("google/gemini-2.5-flash", events(sent), quick, 4);
  });
});
