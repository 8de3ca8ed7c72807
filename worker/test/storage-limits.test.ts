/**
 * What a session may take in storage: KV records expire after 30 days unused (every save starts the
 * time again); a session over 4 Mi characters of JSON is refused at import and is not saved after a
 * run (the previous record stays, the run says why); Durable Object storage holds sessions larger
 * than one stored value (2 MB) in chunks.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_SESSION_CHARS, SESSION_TTL_SECONDS } from "../session-store.ts";
import { auth, call, createSession, json, readEvents, send } from "./api.ts";

async function exported(session: { sessionId: string; token: string }) {
  const response = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
  return response.json<{ messages: Array<{ content: Array<{ text?: string }> }> }>();
}

/** A valid state whose one user message holds `chars` characters. */
async function stateOf(chars: number) {
  const session = await createSession();
  const state = await exported(session);
  return {
    ...state,
    messages: [
      { id: "big", role: "user", content: [{ type: "text", text: "x".repeat(chars) }], timestamp: 1 },
    ],
  };
}

describe("storage limits", () => {
  it("KV records expire 30 days after their last save", async () => {
    const session = await createSession();
    const listed = await env.SESSIONS.list({ prefix: `session:${session.sessionId}` });
    const expiration = listed.keys[0]?.expiration ?? 0;
    const expected = Date.now() / 1000 + SESSION_TTL_SECONDS;
    expect(Math.abs(expiration - expected)).toBeLessThan(60);
  });

  it("an import over the cap is 413 SESSION_TOO_LARGE", async () => {
    const response = await call("/api/sessions/import", json("POST", await stateOf(MAX_SESSION_CHARS + 10)));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "SESSION_TOO_LARGE" } });
  });

  it("a run that would take the session over the cap is not saved: the previous record stays, run-end says why", async () => {
    const imported = await call(
      "/api/sessions/import",
      json("POST", await stateOf(MAX_SESSION_CHARS - 1000)),
    );
    expect(imported.status).toBe(201);
    const session = await imported.json<{ sessionId: string; token: string }>();
    const { events } = await readEvents(await send(session, "Tell me about Wisp"));
    expect(events.at(-1)).toMatchObject({
      event: "run-end",
      data: { ok: true, saved: false, saveError: "SESSION_TOO_LARGE" },
    });
    expect((await exported(session)).messages).toHaveLength(1);
  });

  it("a session larger than one Durable Object value (2 MB) is stored in chunks and continues", async () => {
    const imported = await call("/api/sessions/import", json("POST", await stateOf(3 * 1024 * 1024)));
    const session = await imported.json<{ sessionId: string; token: string }>();
    const first = await readEvents(await send(session, "What is 2 + 3?"));
    expect(first.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true, saved: true } });
    const state = await exported(session);
    expect(state.messages.length).toBeGreaterThan(1);
    expect(state.messages[0]?.content[0]?.text?.length).toBe(3 * 1024 * 1024);
  });
});
