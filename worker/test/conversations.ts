/**
 * Sessions made to order for the storage and fork tests: a conversation of plain messages, the
 * session's Durable Object, and its export.
 */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { Message, SessionState } from "wisp-agent";
import { auth, call, createSession, json, readEvents } from "./api.ts";

/** A session as the API creates it. */
export type Session = { sessionId: string; token: string };

/** The Durable Object that runs `sessionId`. */
export const stub = (sessionId: string) => env.RUNNER.get(env.RUNNER.idFromName(sessionId));

/** The session's export (the test fails unless it is 200). */
export async function exported(session: Session): Promise<SessionState> {
  const response = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
  expect(response.status).toBe(200);
  return response.json<SessionState>();
}

/** `count` messages, user (`u0`, …) and assistant (`a1`, …) text alternating, each `chars` characters or more. */
export function conversation(count: number, chars = 400): Message[] {
  return Array.from({ length: count }, (_, index): Message => {
    const text = `message ${index} `.padEnd(chars, "lorem ipsum ");
    if (index % 2 === 0)
      return { id: `u${index}`, role: "user", content: [{ type: "text", text }], timestamp: index };
    return {
      id: `a${index}`,
      role: "assistant",
      content: [{ type: "text", text }],
      timestamp: index,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "complete",
      usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    };
  });
}

/** A new session holding `messages` (imported; the test fails unless it is 201). */
export async function imported(messages: Message[]): Promise<Session> {
  const state = await exported(await createSession());
  const response = await call("/api/sessions/import", json("POST", { ...state, messages }));
  expect(response.status).toBe(201);
  return response.json<Session>();
}

/** Sends a prompt (forked at `parentId` when given) and reads its run to the end: the run-end event's data. */
export async function runEnd(session: Session, text: string, parentId?: string | null) {
  const body = parentId === undefined ? { text } : { text, parentId };
  const response = await call(
    `/api/sessions/${session.sessionId}/messages`,
    json("POST", body, session.token),
  );
  expect(response.status).toBe(200);
  const { events } = await readEvents(response);
  return events.at(-1)?.data as { ok: boolean; saved: boolean; savedChars: number; messageCount: number };
}

/** Waits, polling, until `done` resolves true (at most about 10 s). */
export async function until(done: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await done()); waited += 50) {
    if (waited > 10_000) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
