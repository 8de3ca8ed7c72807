/**
 * The whole corpus of streams recorded by other projects (../shared/fixtures/streams-in-the-wild:
 * vercel/ai, pydantic-ai and openai-node test suites; Anthropic, OpenAI Chat from OpenAI, Azure and a
 * dozen compatible servers, Responses from OpenAI, Azure, xAI, LM Studio, DeepSeek, Bedrock,
 * OpenRouter, Gemini and Vertex) replayed through `streamTurn`: whole, cut into 1–7 byte pieces, and
 * cut off where the corpus says. Each replay must give what the recording's `.expect.json` states
 * (test/support/wild-streams.ts reads the message back into that shape), with well-formed events and
 * a message that stores and restores.
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage, TurnEvent } from "../../src/index.ts";
import { checkShape } from "../../src/state/check-messages.ts";
import { checkMessageList } from "../../src/state/state-shape.ts";
import { cutRandomly, seededRandom } from "../support/fixtures.ts";
import { replay } from "../support/replay.ts";
import { comparable } from "../support/replay-cases.ts";
import { checkedFields, observe, WILD, wildStreams } from "../support/wild-streams.ts";

const streams = wildStreams();

/** Every event that closes a part carries that part as it is in the final message, at its index. */
function expectWellFormed(events: TurnEvent[], message: AssistantMessage): void {
  expect(events[0]).toMatchObject({ type: "turn-start", provider: message.provider });
  expect(events.at(-1)).toEqual(
    message.error === undefined
      ? { type: "turn-end", message }
      : expect.objectContaining({ type: "error", message }),
  );
  const closed = new Set<number>();
  for (const event of events) {
    if (!("index" in event)) continue;
    expect(event.index).toBeLessThan(message.content.length);
    const part = message.content[event.index];
    if (event.type === "text-end") expect(part).toMatchObject({ type: "text", text: event.text });
    else if (event.type === "thinking-end") expect(part).toBe(event.part);
    else if (event.type === "tool-call") expect(part).toBe(event.toolCall);
    else if (event.type === "provider-part") expect(part).toBe(event.part);
    else continue;
    expect(closed.has(event.index)).toBe(false);
    closed.add(event.index);
  }
  // Every part was closed exactly once.
  expect(closed.size).toBe(message.content.length);
}

/** The message as a session stores it: a JSON round trip that restores to the same message. */
function expectStorable(message: AssistantMessage): void {
  const stored = JSON.parse(JSON.stringify([message]));
  expect(checkShape(checkMessageList, stored, ["messages"])).toEqual([message]);
}

describe(`streams recorded by other projects (${WILD})`, () => {
  it("holds an expectation and a body for every stream SOURCES.md lists", () => {
    // anthropic 51, openai-chat 74, openai-responses 87, google 22 (SOURCES.md's section headings).
    const counts: Record<string, number> = {};
    for (const { expected } of streams) counts[expected.api] = (counts[expected.api] ?? 0) + 1;
    expect(counts).toEqual({
      anthropic: 51,
      "openai-chat": 74,
      "openai-responses": 87,
      google: 22,
    });
  });

  streams.forEach(({ name, bytes, expected }, position) => {
    describe(name, () => {
      it("replays whole to what the recording holds, with well-formed events and a storable message", async () => {
        const { message, events } = await replay(expected.model, [bytes]);
        expect(observe(message, expected)).toEqual(checkedFields(expected));
        expectWellFormed(events, message);
        expectStorable(message);
      });

      it("gives the same message cut into pieces of 1 to 7 bytes", async () => {
        const whole = await replay(expected.model, [bytes]);
        const pieces = cutRandomly(bytes, seededRandom(position + 1), 7);
        const { message } = await replay(expected.model, pieces);
        expect(observe(message, expected)).toEqual(checkedFields(expected));
        expect(comparable(message)).toEqual(comparable(whole.message));
      });

      const cut = expected.truncate;
      if (cut !== undefined)
        it(`cut off at byte ${cut.atByte}, ends truncated keeping the content of the events before the cut`, async () => {
          const { message } = await replay(expected.model, [bytes.slice(0, cut.atByte)]);
          expect(message.stopReason).toBe("error");
          expect(message.error?.code).toBe("STREAM_TRUNCATED");
          const joined = (type: "text" | "thinking") =>
            message.content.map((part) => (part.type === type ? part.text : "")).join("");
          expect(joined("text")).toBe(cut.text);
          if (cut.reasoning !== undefined) expect(joined("thinking")).toBe(cut.reasoning);
          expectStorable(message);
        });
    });
  });
});
