/**
 * The shared shape of a recording suite: each recording replays whole to the expected message, and
 * to the same message when split at random byte boundaries.
 */
import { expect, it } from "vitest";
import type { AssistantMessage } from "../../src/index.ts";
import { chunksToSse, fixtureBytes, rechunk } from "./fixtures.ts";
import { replay } from "./replay.ts";

/** A recording and the checks read off it. */
export interface RecordingCase {
  file: string;
  check(message: AssistantMessage): void;
}

/** A recording's bytes: `.sse` as recorded, `.chunks.jsonl` framed back into SSE. */
const recorded = (file: string) => (file.endsWith(".jsonl") ? chunksToSse(file) : fixtureBytes(file));

/** The message without what differs between replays: its id, timestamp and generated call ids. */
export const comparable = (message: AssistantMessage) => ({
  ...message,
  id: "",
  timestamp: 0,
  content: message.content.map((part, index) =>
    part.type === "tool_call" && part.id.startsWith("call_") && message.provider === "google"
      ? { ...part, id: `generated ${index}` }
      : part,
  ),
});

/** Declares the two tests of every case. */
export function itReplaysRecordings(model: string, cases: RecordingCase[], seeds: number[]): void {
  for (const { file, check } of cases) {
    it(`${file} replays whole to the recorded content, usage and stop reason`, async () => {
      const { message, events } = await replay(model, [recorded(file)]);
      expect(message.error).toBeUndefined();
      check(message);
      expect(events.at(-1)).toEqual({ type: "turn-end", message });
    });

    it(`${file} gives the same message when split at random byte boundaries`, async () => {
      const bytes = recorded(file);
      const whole = await replay(model, [bytes]);
      for (const seed of seeds) {
        const { message } = await replay(model, rechunk(bytes, seed, bytes.length > 50_000 ? 400 : 24));
        check(message);
        expect(comparable(message)).toEqual(comparable(whole.message));
      }
    });
  }
}
