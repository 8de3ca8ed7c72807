/**
 * Nothing after a stream's terminal event is read, whether it comes in the same read as that event or
 * in a later one: gateways append `data: [DONE]` after Anthropic's `message_stop` and after the
 * Responses' `response.completed` (OpenRouter's Responses endpoint does), and a finished turn must not
 * fail on it.
 */
import { describe, expect, it } from "vitest";
import { fixtureBytes } from "../support/fixtures.ts";
import { replay } from "../support/replay.ts";

const DONE = new TextEncoder().encode("data: [DONE]\n\n");
const joined = (...parts: Uint8Array[]) => {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
};

const recordings = [
  { model: "anthropic/claude-sonnet-4-5", file: "anthropic/text-sonnet-4-5.sse" },
  { model: "openai-responses/gpt-4o-mini", file: "openai-responses/text-simple.sse" },
];

describe.each(recordings)("$file with data: [DONE] after its terminal event", ({ model, file }) => {
  const recorded = fixtureBytes(file);

  it("completes when both arrive in one read, as when they arrive in two", async () => {
    const alone = await replay(model, [recorded]);
    expect(alone.message.stopReason).toBe("complete");
    const oneRead = await replay(model, [joined(recorded, DONE)]);
    const twoReads = await replay(model, [recorded, DONE]);
    for (const { message, events } of [oneRead, twoReads]) {
      expect(message.error).toBeUndefined();
      expect(events.at(-1)).toEqual({ type: "turn-end", message });
      expect({ ...message, id: "", timestamp: 0 }).toEqual({ ...alone.message, id: "", timestamp: 0 });
    }
  });

  it("reads nothing after the terminal event, not even malformed data", async () => {
    const garbage = new TextEncoder().encode("data: {not json\n\nevent: error\ndata: {}\n\n");
    const { message } = await replay(model, [joined(recorded, garbage)]);
    expect(message.error).toBeUndefined();
    expect(message.stopReason).toBe("complete");
  });
});
