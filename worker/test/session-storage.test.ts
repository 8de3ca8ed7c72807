/**
 * How a session is stored (issue 38): rows in its Durable Object's SQLite, a save writing the turn and
 * not the conversation; a session kept across runs and read back after the object is evicted; the KV
 * copy a session is restored from when its object lost its storage; sessions stored before rows (one
 * JSON document in the object's storage and in KV) read and moved into rows on first use; the list of
 * a client's sessions from KV metadata; the alarm that removes a session unused for 30 days.
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Message, SessionState } from "wisp-agent";
import { newToken, tokenDigest } from "../tokens.ts";
import { auth, call, createSession, json, readEvents, send } from "./api.ts";
import { conversation, exported, type Session, stub, until } from "./conversations.ts";

/** A valid state of the demo holding `messages`. */
async function stateWith(messages: Message[]): Promise<SessionState> {
  const state = await exported(await createSession());
  return { ...state, messages };
}

async function importState(state: SessionState, client?: string): Promise<Session> {
  const init = json("POST", state);
  if (client !== undefined) init.headers = { ...init.headers, "wisp-client": client };
  const response = await call("/api/sessions/import", init);
  expect(response.status).toBe(201);
  return response.json<Session>();
}

async function runEnd(session: Session, text = "What is 2 + 3?") {
  const { events } = await readEvents(await send(session, text));
  const end = events.at(-1);
  expect(end?.event).toBe("run-end");
  return end?.data as { ok: boolean; saved: boolean; savedChars: number; messageCount: number };
}

/** The message rows of a session's object: distinct messages and their parts. */
function rowCounts(sessionId: string): Promise<{ messages: number; parts: number }> {
  return runInDurableObject(stub(sessionId), (_instance, state) =>
    state.storage.sql
      .exec<{ messages: number; parts: number }>(
        "SELECT COUNT(DISTINCT seq) AS messages, COUNT(*) AS parts FROM session_messages",
      )
      .one(),
  );
}

describe("rows", () => {
  it("a save writes the turn and the head, not the conversation: the same turn costs the same at 2 and 2,000 messages", async () => {
    const small = await importState(await stateWith(conversation(2)));
    const large = await importState(await stateWith(conversation(2_000)));
    const largeChars = JSON.stringify(await exported(large)).length;
    expect(largeChars).toBeGreaterThan(800_000);
    const smallEnd = await runEnd(small);
    const largeEnd = await runEnd(large);
    expect(largeEnd).toMatchObject({ ok: true, saved: true, messageCount: 2_004 });
    expect(largeEnd.savedChars).toBeGreaterThan(0);
    expect(largeEnd.savedChars).toBeLessThan(largeChars / 50);
    expect(Math.abs(largeEnd.savedChars - smallEnd.savedChars)).toBeLessThan(smallEnd.savedChars / 2);
    expect(await rowCounts(large.sessionId)).toEqual({ messages: 2_004, parts: 2_004 });
  });

  it("metadata (an imported transcript's lines, over 2 MB here) is written once, not by every save", async () => {
    const lines = Array.from(
      { length: 3_000 },
      (_, index) => `{"line":${index},"text":"${"t".repeat(1_000)}"}`,
    );
    const session = await importState({
      ...(await stateWith(conversation(2))),
      metadata: { transcript: lines },
    });
    const end = await runEnd(session);
    expect(end).toMatchObject({ ok: true, saved: true });
    expect(end.savedChars).toBeLessThan(50_000);
    expect((await exported(session)).metadata).toEqual({ transcript: lines });
    await evictDurableObject(stub(session.sessionId));
    expect((await runEnd(session, "What is 3 * 3?")).savedChars).toBeLessThan(50_000);
    expect((await exported(session)).metadata).toEqual({ transcript: lines });
  });

  it("a session continues after its object is evicted, read back from the rows", async () => {
    const session = await createSession();
    await runEnd(session, "What is 12 * 7?");
    const before = await exported(session);
    await evictDurableObject(stub(session.sessionId));
    const end = await runEnd(session, "And the time in Europe/Oslo?");

    expect(end).toMatchObject({ ok: true, saved: true });
    const after = await exported(session);
    expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
    expect(after.messages.length).toBeGreaterThan(before.messages.length);
  });

  it("export streams the same state the session holds (a message over 2 MB comes back whole)", async () => {
    const big = conversation(2);
    (big[0]?.content[0] as { text: string }).text = "é".repeat(3 * 1024 * 1024);
    const session = await importState(await stateWith(big));
    const state = await exported(session);
    expect(state.messages).toEqual(big);
    expect((await rowCounts(session.sessionId)).parts).toBeGreaterThan(2);
  });
});

describe("the KV copy", () => {
  it("is pages and an index, and a session whose object lost its storage is restored from it", async () => {
    const session = await importState({
      ...(await stateWith(conversation(300))),
      metadata: { note: "kept" },
    });
    await runEnd(session);
    const before = await exported(session);
    const copied = async () => {
      const index = await env.SESSIONS.get<{ messageCount: number }>(`copy:${session.sessionId}`, "json");
      return index?.messageCount === before.messages.length;
    };
    await until(copied);
    await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
      await state.storage.deleteAll();
    });
    await evictDurableObject(stub(session.sessionId));
    expect(await exported(session)).toEqual(before);
    expect(await runEnd(session, "What is 3 * 3?")).toMatchObject({ ok: true, saved: true });
  });
});

describe("sessions stored before rows", () => {
  /** A session as the previous version stored it: a KV entry holding the whole state. */
  async function legacySession(state: SessionState): Promise<Session> {
    const sessionId = crypto.randomUUID();
    const token = newToken();
    const record = { tokenDigest: await tokenDigest(token), state: { ...state, sessionId } };
    await env.SESSIONS.put(`session:${sessionId}`, JSON.stringify(record));
    return { sessionId, token };
  }

  it("one JSON document in KV is read, moved into rows, and continues; the KV entry is rewritten small", async () => {
    const messages = conversation(6);
    const session = await legacySession(await stateWith(messages));
    expect((await exported(session)).messages).toEqual(messages);
    const entry = JSON.parse((await env.SESSIONS.get(`session:${session.sessionId}`)) ?? "{}");
    expect(Object.keys(entry)).toEqual(["tokenDigest"]);
    expect(await rowCounts(session.sessionId)).toEqual({ messages: 6, parts: 6 });
    expect(await runEnd(session)).toMatchObject({ ok: true, saved: true, messageCount: 10 });
  });

  it("the object's chunks (newer than KV's copy) win, and are removed once moved", async () => {
    const older = conversation(2);
    const newer = conversation(4);
    const session = await legacySession(await stateWith(older));
    const state = { ...(await stateWith(newer)), sessionId: session.sessionId };
    const json = JSON.stringify({ tokenDigest: await tokenDigest(session.token), state });
    const half = Math.ceil(json.length / 2);
    await runInDurableObject(stub(session.sessionId), async (_instance, object) => {
      await object.storage.put({
        "record:0": json.slice(0, half),
        "record:1": json.slice(half),
        "record:count": 2,
      });
    });
    expect((await exported(session)).messages).toEqual(newer);
    const keys = await runInDurableObject(stub(session.sessionId), async (_instance, object) => [
      ...(await object.storage.list()).keys(),
    ]);
    expect(keys.filter((key) => key.startsWith("record:"))).toEqual([]);
    expect(await runEnd(session)).toMatchObject({ ok: true, saved: true, messageCount: 8 });
  });

  it("a stored state the SDK refuses is 409 STATE_UNUSABLE, and nothing is moved", async () => {
    const state = await stateWith(conversation(2));
    const session = await legacySession({ ...state, messages: [{ id: "x" } as unknown as Message] });
    const response = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: "STATE_UNUSABLE" } });
    expect(await rowCounts(session.sessionId)).toEqual({ messages: 0, parts: 0 });
  });
});

describe("the session list", () => {
  const secret = (): string => newToken();

  async function listed(client: string) {
    const response = await call("/api/sessions", auth(client));
    expect(response.status).toBe(200);
    return (await response.json<{ sessions: Array<Record<string, unknown>> }>()).sessions;
  }

  it("lists a client's sessions with a summary each, newest first, from KV metadata", async () => {
    const client = secret();
    const first = await importState(await stateWith([]), client);
    const second = await importState(await stateWith([]), client);
    await runEnd(first, "What is 12 * 7?\n\n  and   more");
    await runEnd(second, "x".repeat(200));
    await createSession(); // another client's (none): not listed
    const counts = new Map([
      [first.sessionId, (await exported(first)).messages.length],
      [second.sessionId, (await exported(second)).messages.length],
    ]);
    // Both listed (an empty list is not "every one up to date") with their last runs counted.
    await until(async () => {
      const summaries = await listed(client);
      return (
        summaries.length === 2 &&
        summaries.every(
          (summary) =>
            summary.messageCount === counts.get(String(summary.sessionId)) && summary.status === "idle",
        )
      );
    });
    const sessions = await listed(client);
    expect(sessions.map((summary) => summary.sessionId)).toEqual([second.sessionId, first.sessionId]);
    expect(sessions[1]).toMatchObject({ title: "What is 12 * 7? and more", status: "idle", messageCount: 4 });
    expect(sessions[0]).toMatchObject({ messageCount: counts.get(second.sessionId) });
    expect(String(sessions[0]?.title)).toHaveLength(80);
    expect(sessions[0]?.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
    expect(sessions[0]?.updatedAt).toBeGreaterThanOrEqual(Number(sessions[0]?.createdAt));
    await call(`/api/sessions/${first.sessionId}`, auth(first.token, "DELETE"));
    expect((await listed(client)).map((summary) => summary.sessionId)).toEqual([second.sessionId]);
  });

  it("needs the client secret: none is 401, a malformed one on create is 400", async () => {
    expect((await call("/api/sessions")).status).toBe(401);
    expect((await call("/api/sessions", auth("short"))).status).toBe(401);
    const response = await call("/api/sessions", {
      method: "POST",
      headers: { "wisp-client": "no spaces allowed here!" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "INVALID_REQUEST", path: "wisp-client" } });
    expect(await listed(secret())).toEqual([]);
  });
});

describe("expiry", () => {
  it("the object's alarm (30 days after the last save) removes the session, its KV entry and copy", async () => {
    const session = await createSession();
    await runEnd(session);
    await until(async () => (await env.SESSIONS.get(`copy:${session.sessionId}`)) !== null);
    expect(await runDurableObjectAlarm(stub(session.sessionId))).toBe(true);
    expect((await call(`/api/sessions/${session.sessionId}/export`, auth(session.token))).status).toBe(404);
    const left = await env.SESSIONS.list({ prefix: `copy:${session.sessionId}` });
    expect(left.keys).toEqual([]);
    expect(await env.SESSIONS.get(`session:${session.sessionId}`)).toBeNull();
  });
});
