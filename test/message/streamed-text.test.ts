/**
 * StreamedText sets its fragments aside in flat blocks as they come; whatever the count (none, within
 * one block, exactly on a block's edge, many blocks and a rest), the text is every fragment, in order.
 */
import { describe, expect, it } from "vitest";
import { MessageBuilder } from "../../src/message/message-builder.ts";
import { StreamedText } from "../../src/message/streamed-text.ts";
import type { ToolCallPart, TurnEvent } from "../../src/types.ts";

const fragments = (count: number): string[] => Array.from({ length: count }, (_, index) => `${index}·é日😀 `);

describe("StreamedText", () => {
  it.each([0, 1, 255, 256, 257, 512, 513, 5_000])("keeps %i fragments, in order", (count) => {
    const streamed = new StreamedText();
    const pieces = fragments(count);
    for (const piece of pieces) streamed.append(piece);
    expect(streamed.text()).toBe(pieces.join(""));
  });

  it("gives the same text when asked twice, and goes on growing after", () => {
    const streamed = new StreamedText();
    const pieces = fragments(700);
    for (const piece of pieces.slice(0, 600)) streamed.append(piece);
    const first = streamed.text();
    expect(streamed.text()).toBe(first);
    for (const piece of pieces.slice(600)) streamed.append(piece);
    expect(streamed.text()).toBe(pieces.join(""));
  });

  it("counts empty fragments without losing the ones around them", () => {
    const streamed = new StreamedText();
    for (let index = 0; index < 600; index++) streamed.append(index % 2 === 0 ? "" : String(index));
    expect(streamed.text()).toBe(Array.from({ length: 300 }, (_, index) => String(index * 2 + 1)).join(""));
  });
});

describe("MessageBuilder with many fragments", () => {
  it("parses tool arguments streamed in 1,000 fragments, and the deltas add up to them", () => {
    const events: TurnEvent[] = [];
    const builder = new MessageBuilder("anthropic", "m", (event) => events.push(event));
    const args = { items: Array.from({ length: 400 }, (_, id) => ({ id, note: `n${id}é` })) };
    const json = JSON.stringify(args);
    const size = Math.ceil(json.length / 1_000);
    builder.toolCallStart("0", "call_1", "save");
    for (let offset = 0; offset < json.length; offset += size)
      builder.toolCallArgs("0", json.slice(offset, offset + size));
    builder.close("0");
    const call = builder.message.content[0] as ToolCallPart;
    expect(call.args).toEqual(args);
    expect(call.rawArgs).toBeUndefined();
    const deltas = events.flatMap((event) => (event.type === "tool-call-delta" ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(256);
    expect(deltas.join("")).toBe(json);
  });
});
