/**
 * Providers are loaded on first use (a dynamic import). A load that fails — a browser chunk that
 * could not be fetched — ends the turn with a typed error (the message never rejects), and the next
 * turn tries the load again.
 */
import { afterEach, expect, it, vi } from "vitest";
import { streamTurn } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { HELLO } from "../support/replay.ts";

let failLoad = true;
vi.mock("../../src/providers/google/index.ts", async (importOriginal) => {
  if (failLoad) throw new TypeError("Failed to fetch dynamically imported module: google/index.js");
  return importOriginal();
});

afterEach(() => {
  vi.resetModules();
});

it("a provider that cannot be loaded fails the turn with a typed error, and is retried next turn", async () => {
  const model = createScriptedModel({ script: [{ content: [{ type: "text", text: "Hello" }] }] });
  const options = { model: "google/gemini-2.5-flash", apiKey: "k", fetch: model.fetch } as const;

  const failed = streamTurn({ messages: [HELLO] }, options);
  const events = [];
  for await (const event of failed) events.push(event);
  const message = await failed.message;
  expect(message.stopReason).toBe("error");
  expect(message.error).toMatchObject({ provider: "google" });
  expect(message.error?._tag).toBe("RequestError");
  expect(events.at(-1)).toMatchObject({ type: "error" });
  expect(model.requests).toHaveLength(0);

  failLoad = false;
  const next = streamTurn({ messages: [HELLO] }, options);
  const answer = await next.message;
  expect(answer.error).toBeUndefined();
  expect(answer.content).toEqual([{ type: "text", text: "Hello" }]);
});
