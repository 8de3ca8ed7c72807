/**
 * Replays recorded response bytes through the whole `streamTurn` path: an injected fetch answers with
 * a Response whose body yields the given chunks.
 */
import { type AssistantMessage, streamTurn, type TurnEvent, uncheckedModel } from "../../src/index.ts";

/** A response body that yields `chunks` one by one. */
export function bodyOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** The events and final message of one turn answered with `chunks`. */
export async function replay(
  model: string,
  chunks: Uint8Array[],
  init: ResponseInit = { status: 200, headers: { "content-type": "text/event-stream" } },
): Promise<{ events: TurnEvent[]; message: AssistantMessage }> {
  const fetch = (async () => new Response(bodyOf(chunks), init)) as typeof globalThis.fetch;
  const turn = streamTurn(
    { messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 0 }] },
    { model: uncheckedModel(model), apiKey: "test-key", fetch, retry: { maxRetries: 0 } },
  );
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  return { events, message: await turn.message };
}

/** The user message most tests send. */
export const HELLO = {
  id: "u1",
  role: "user" as const,
  content: [{ type: "text" as const, text: "hi" }],
  timestamp: 0,
};

/** The message of one turn answered with an HTTP error: `body` as JSON with `status`. */
export async function replayError(model: string, body: unknown, status: number): Promise<AssistantMessage> {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const { message } = await replay(model, [bytes], {
    status,
    headers: { "content-type": "application/json" },
  });
  return message;
}
