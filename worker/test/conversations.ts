/**
 * Sessions made to order for the storage and fork tests: a conversation of plain messages, the
 * session's Durable Object, and its export.
 */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { Message, SessionState } from "wisp-agent";
import { auth, call } from "./api.ts";

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
