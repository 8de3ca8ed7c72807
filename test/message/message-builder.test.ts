/**
 * The message builder keeps streamed fragments and joins each part when it closes; a text of many
 * short deltas is kept as one flat string, not a chain of concatenations several times its size.
 * Whatever ends the turn, the message holds every fragment seen.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors/sdk-error.ts";
import { MessageBuilder } from "../../src/message/message-builder.ts";
import type { TextPart, ToolCallPart, TurnEvent } from "../../src/types.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function builder(): { builder: MessageBuilder; events: TurnEvent[] } {
  const events: TurnEvent[] = [];
  return { builder: new MessageBuilder("anthropic", "m", (event) => events.push(event)), events };
}

describe("MessageBuilder", () => {
  it("joins thousands of text deltas into the part, and text-end carries the whole text", () => {
    const { builder: b, events } = builder();
    const pieces = Array.from({ length: 5_000 }, (_, index) => `w${index} 日本 `);
    b.text("0", "");
    for (const piece of pieces) b.text("0", piece);
    const message = b.finish();
    expect(message.content).toEqual([{ type: "text", text: pieces.join("") }]);
    expect(events.filter((event) => event.type === "text-delta").length).toBe(5_000);
    expect(events.find((event) => event.type === "text-end")).toEqual({
      type: "text-end",
      index: 0,
      text: pieces.join(""),
    });
  });

  it("keeps an opening text and the deltas after it, for text and thinking alike", () => {
    const { builder: b } = builder();
    b.thinking("0", "Let me ");
    b.thinking("0", "think.");
    b.text("1", "Hello");
    b.text("1", ", world");
    expect(b.finish().content).toEqual([
      { type: "thinking", text: "Let me think." },
      { type: "text", text: "Hello, world" },
    ]);
  });

  it("a failure mid-part keeps every fragment streamed so far", () => {
    const { builder: b } = builder();
    b.text("0", "partial ");
    b.text("0", "answer");
    b.toolCallStart("1", "call_1", "search");
    b.toolCallArgs("1", '{"q":');
    const message = b.fail(new ProviderError("cut", { code: "SERVER_ERROR", provider: "anthropic" }));
    expect(message.stopReason).toBe("error");
    expect(message.content[0]).toEqual({ type: "text", text: "partial answer" });
    expect(message.content[1]).toMatchObject({ type: "tool_call", id: "call_1", args: {}, rawArgs: '{"q":' });
  });

  it("a key reused for another kind of part closes the first with its text", () => {
    const { builder: b } = builder();
    b.text("0", "first");
    b.thinking("0", "then reasoning");
    expect(b.finish().content).toEqual([
      { type: "text", text: "first" },
      { type: "thinking", text: "then reasoning" },
    ]);
  });
});

describe("MessageBuilder with many fragments", () => {
  it("parses tool arguments streamed in 1,000 fragments, and the deltas add up to them", () => {
    const { builder: b, events } = builder();
    const args = { items: Array.from({ length: 400 }, (_, id) => ({ id, note: `n${id}é` })) };
    const json = JSON.stringify(args);
    const size = Math.ceil(json.length / 1_000);
    b.toolCallStart("0", "call_1", "save");
    for (let offset = 0; offset < json.length; offset += size)
      b.toolCallArgs("0", json.slice(offset, offset + size));
    b.close("0");
    const call = b.message.content[0] as ToolCallPart;
    expect(call.args).toEqual(args);
    expect(call.rawArgs).toBeUndefined();
    const deltas = events.flatMap((event) => (event.type === "tool-call-delta" ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(256);
    expect(deltas.join("")).toBe(json);
  });

  it("joins long deltas whole, and text-end carries them", () => {
    const { builder: b, events } = builder();
    const pieces = Array.from({ length: 300 }, (_, index) => `${index} ${"long délta ".repeat(90)}`);
    for (const piece of pieces) b.text("0", piece);
    const message = b.finish();
    expect(message.content).toEqual([{ type: "text", text: pieces.join("") }]);
    expect(events.find((event) => event.type === "text-end")).toMatchObject({ text: pieces.join("") });
  });

  it("keeps a text of 100,000 short deltas in about its own size, not several times it", () => {
    // A rope of 100,000 deltas of 7 characters takes over 4 MB; the flat text 0.7 MB.
    gc();
    const before = process.memoryUsage().heapUsed;
    const b = new MessageBuilder("anthropic", "m", () => {});
    for (let index = 0; index < 100_000; index++) b.text("0", ` w${index}`.padEnd(7, "x"));
    const message = b.finish();
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(message.content).toEqual([{ type: "text", text: expect.stringMatching(/^ w0xxxx w1xxxx/) }]);
    expect((message.content[0] as TextPart).text).toHaveLength(700_000);
    expect(retained).toBeLessThan(2_000_000);
  });
});
