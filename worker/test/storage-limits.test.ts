/**
 * What a session may take in storage: KV entries expire after 30 days unused (every save starts the
 * time again); a session over the cap is refused at import and is not saved after a run (the previous
 * save stays, the run says why); a message larger than one SQLite value (2 MB) is stored in parts.
 * The cap is 64 Mi characters; these tests run with SESSION_MAX_CHARS at 8 Mi (vitest.config.ts), so
 * reaching it takes no 64 MiB bodies.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_SESSION_CHARS, SESSION_TTL_SECONDS, sessionCharLimit } from "../session-store.ts";
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

const CAP = sessionCharLimit(env.SESSION_MAX_CHARS);

describe("storage limits", () => {
  it("the cap is 64 Mi characters; SESSION_MAX_CHARS may only lower it", () => {
    expect(MAX_SESSION_CHARS).toBe(64 * 1024 * 1024);
    expect(CAP).toBe(8 * 1024 * 1024);
    expect(sessionCharLimit(undefined)).toBe(MAX_SESSION_CHARS);
    expect(sessionCharLimit(String(2 * MAX_SESSION_CHARS))).toBe(MAX_SESSION_CHARS);
    expect(sessionCharLimit("-5")).toBe(MAX_SESSION_CHARS);
    expect(sessionCharLimit("1.5")).toBe(MAX_SESSION_CHARS);
  });

  it("KV records expire 30 days after their last save", async () => {
    const session = await createSession();
    const listed = await env.SESSIONS.list({ prefix: `session:${session.sessionId}` });
    const expiration = listed.keys[0]?.expiration ?? 0;
    const expected = Date.now() / 1000 + SESSION_TTL_SECONDS;
    expect(Math.abs(expiration - expected)).toBeLessThan(60);
  });

  it("an import over the cap is 413 SESSION_TOO_LARGE", async () => {
    const response = await call("/api/sessions/import", json("POST", await stateOf(CAP + 10)));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "SESSION_TOO_LARGE" } });
  });

  it("a run that would take the session over the cap is not saved: the previous record stays, run-end says why", async () => {
    const imported = await call("/api/sessions/import", json("POST", await stateOf(CAP - 1000)));
    expect(imported.status).toBe(201);
    const session = await imported.json<{ sessionId: string; token: string }>();
    const { events } = await readEvents(await send(session, "Tell me about Wisp"));
    expect(events.at(-1)).toMatchObject({
      event: "run-end",
      data: { ok: true, saved: false, saveError: "SESSION_TOO_LARGE" },
    });
    expect((await exported(session)).messages).toHaveLength(1);
    // The unsaved session is dropped: the next run continues from the stored one (one message).
    const next = await readEvents(await send(session, "What is 2 + 3?"));
    expect(next.events[0]).toMatchObject({ event: "run-start", data: { messagesBefore: 1 } });
  });

  it("a message larger than one SQLite value (2 MB) is stored in parts and continues", async () => {
    const imported = await call("/api/sessions/import", json("POST", await stateOf(3 * 1024 * 1024)));
    const session = await imported.json<{ sessionId: string; token: string }>();
    const first = await readEvents(await send(session, "What is 2 + 3?"));
    expect(first.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true, saved: true } });
    const state = await exported(session);
    expect(state.messages.length).toBeGreaterThan(1);
    expect(state.messages[0]?.content[0]?.text?.length).toBe(3 * 1024 * 1024);
  });
});
