/**
 * One chat turn against a running demo Worker over plain HTTP: create a session, send a message, read
 * the run's SSE events to `run-end`.
 */
import { expect } from "vitest";
import { readSse } from "../../src/http/read-sse.ts";

/** One SSE event of a run, its data parsed. */
export interface RunEvent {
  event: string | undefined;
  data: Record<string, unknown>;
}

/** Creates a session on `url` and runs `text` in it; resolves with the run's events, `run-end` last. */
export async function chatTurn(url: string, text: string): Promise<RunEvent[]> {
  const created = await fetch(`${url}/api/sessions`, { method: "POST" });
  expect(created.status).toBe(201);
  const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
  const response = await fetch(`${url}/api/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
  expect(response.status).toBe(200);
  if (response.body === null) throw new Error("no body");
  const events: RunEvent[] = [];
  await readSse(response.body, {
    onEvent: (event) => events.push({ event: event.event, data: JSON.parse(event.data) }),
    isDone: () => events.at(-1)?.event === "run-end",
  });
  return events;
}
