/**
 * The message builder keeps streamed fragments and joins each part when it closes (one flat string,
 * not a chain of concatenations). Whatever ends the turn, the message holds every fragment seen.
 */
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors/sdk-error.ts";
import { MessageBuilder } from "../../src/message/message-builder.ts";
import type { TurnEvent } from "../../src/types.ts";

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
