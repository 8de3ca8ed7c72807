/**
 * The SessionRunner's edges around branches, export and moving old sessions (worker/session-runner.ts):
 * listing branches leaves the session kept between runs usable; a switch holds the session like a
 * run (a switch during a run is 409, a delete during a switch waits for it), is 503 when storage
 * refuses it, lets the next message run, and drops the last run's log; an export is JSON; a session stored
 * before rows that is too large is refused and a failed move is tried again; a move out of the object's
 * chunks rewrites the KV entry small and writes the KV copy; a listed session restored from the KV copy
 * keeps its client.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Message, SessionState } from "wisp-agent";
import { newToken, tokenDigest } from "../tokens.ts";
import { auth, call, createSession, json, readEvents, refusal, send } from "./api.ts";
import { conversation, exported, imported, runEnd, type Session, stub, until } from "./conversations.ts";

type Branch = { leafId: string; active: boolean };

function branchesOf(session: Session): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/branches`, auth(session.token));
}

function switchTo(session: Session, leafId: string): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/branches`, json("POST", { leafId }, session.token));
}

/** A command sent straight to the session's object (as the Worker sends it). */
function command(body: unknown): Request {
  return new Request("http://runner/", { method: "POST", body: JSON.stringify(body) });
}

describe("branches", () => {
  it("GET lists the branches from the kept session, which the next message still continues", async () => {
    const session = await imported(conversation(4));
    const fork = await runEnd(session, "What is 2 + 3?", "a1");
    expect(fork).toMatchObject({ ok: true, saved: true });
    const listed = await branchesOf(session);
    expect(listed.status).toBe(200);
    const { branches } = await listed.json<{ branches: Branch[] }>();
    expect(branches).toHaveLength(2);
    const active = (await exported(session)).messages.at(-1)?.id;
    expect(branches.filter((branch) => branch.active).map((branch) => branch.leafId)).toEqual([active]);
    expect(branches.some((branch) => branch.leafId === "a3" && !branch.active)).toBe(true);
    const next = await runEnd(session, "What is 3 * 3?");
    expect(next).toMatchObject({ ok: true, saved: true });
    expect(next.messageCount).toBeGreaterThan(fork.messageCount);
  });

  it("GET lists the branches from the rows when no session is kept", async () => {
    const session = await imported(conversation(4));
    await evictDurableObject(stub(session.sessionId));
    const listed = await branchesOf(session);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      branches: [expect.objectContaining({ leafId: "a3", active: true })],
    });
  });

  it("after a switch the next message runs on the branch switched to, and the last run's events are gone", async () => {
    const session = await imported(conversation(6));
    await runEnd(session, "What is 2 + 3?", "a3");
    const attached = await call(`/api/sessions/${session.sessionId}/events?after=0`, auth(session.token));
    expect(attached.status).toBe(200);
    await readEvents(attached);
    const switched = await switchTo(session, "a5");
    expect(switched.status).toBe(200);
    const [status, error] = await refusal(
      await call(`/api/sessions/${session.sessionId}/events?after=0`, auth(session.token)),
    );
    expect([status, error.code]).toEqual([404, "NO_RUN"]);
    expect(await runEnd(session, "What is 3 * 3?")).toMatchObject({
      ok: true,
      saved: true,
      messageCount: 10,
    });
    const state = await exported(session);
    expect(state.messages.slice(0, 6).map((message) => message.id)).toEqual([
      "u0",
      "a1",
      "u2",
      "a3",
      "u4",
      "a5",
    ]);
  });

  it("a switch while a run is in flight is 409 SESSION_BUSY and changes nothing", async () => {
    const session = await imported(conversation(6));
    await runEnd(session, "What is 2 + 3?", "a3");
    const before = await exported(session);
    const { sessionId } = session;
    const [ran, switched] = await runInDurableObject(stub(sessionId), async (instance) => {
      const [run, switching] = await Promise.all([
        instance.fetch(command({ op: "run", sessionId, text: "What is 3 * 3?" })),
        instance.fetch(command({ op: "switch", sessionId, leafId: "a5" })),
      ]);
      return [await readEvents(run), await refusal(switching)] as const;
    });
    expect(switched).toEqual([
      409,
      {
        code: "SESSION_BUSY",
        message: "A run is in flight for this session: wait for it or cancel it",
      },
    ]);
    expect(ran.events.at(-1)?.data).toMatchObject({ ok: true, saved: true });
    const after = await exported(session);
    expect(after.branches).toEqual(before.branches);
    expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
  });

  it("a switch that storage refuses is 503 STORAGE_FAILED, and the stored session is unchanged", async () => {
    const session = await imported(conversation(6));
    await runEnd(session, "What is 2 + 3?", "a3");
    const before = await exported(session);
    await runInDurableObject(stub(session.sessionId), (_instance, state) => {
      state.storage.sql.exec(
        "CREATE TRIGGER refuse_branches BEFORE INSERT ON session_branches BEGIN SELECT RAISE(ABORT, 'disk full'); END",
      );
    });
    try {
      expect(await refusal(await switchTo(session, "a5"))).toEqual([
        503,
        { code: "STORAGE_FAILED", message: "The switch could not be saved (STORAGE_FAILED)" },
      ]);
    } finally {
      await runInDurableObject(stub(session.sessionId), (_instance, state) => {
        state.storage.sql.exec("DROP TRIGGER refuse_branches");
      });
    }
    expect(await exported(session)).toEqual(before);
  });

  it("a delete that lands while a switch moves an old session waits for it, and the session is gone", async () => {
    const messages = conversation(6);
    const session = await legacySession(await stateWith(messages));
    const { sessionId } = session;
    const [switched, deleted] = await runInDurableObject(stub(sessionId), async (instance) => {
      const [switching, deleting] = await Promise.all([
        instance.fetch(command({ op: "switch", sessionId, leafId: "a5" })),
        instance.fetch(command({ op: "delete", sessionId })),
      ]);
      return [await refusal(switching), deleting.status] as const;
    });
    expect(switched[0]).toBeGreaterThanOrEqual(400);
    expect(deleted).toBe(204);
    const keys = await runInDurableObject(stub(sessionId), async (_instance, state) => [
      ...(await state.storage.list()).keys(),
    ]);
    expect(keys).toEqual([]);
    expect(await env.SESSIONS.get(`session:${sessionId}`)).toBeNull();
  });
});

/** A valid state of the demo holding `messages`. */
async function stateWith(messages: Message[]): Promise<SessionState> {
  const state = await exported(await createSession());
  return { ...state, messages };
}

/** A session as the previous version stored it: a KV entry holding the whole state. */
async function legacySession(state: SessionState, session?: Session): Promise<Session> {
  const sessionId = session?.sessionId ?? crypto.randomUUID();
  const token = session?.token ?? newToken();
  const record = { tokenDigest: await tokenDigest(token), state: { ...state, sessionId } };
  await env.SESSIONS.put(`session:${sessionId}`, JSON.stringify(record));
  return { sessionId, token };
}

describe("export", () => {
  it("is served as JSON", async () => {
    const session = await createSession();
    const response = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ sessionId: session.sessionId });
  });
});

describe("sessions stored before rows", () => {
  const exportOf = (session: Session) =>
    call(`/api/sessions/${session.sessionId}/export`, auth(session.token));

  it("one over the size limit is 409 STATE_UNUSABLE saying why, and nothing is moved", async () => {
    const messages = conversation(2);
    (messages[0]?.content[0] as { text: string }).text = "x".repeat(9 * 1024 * 1024);
    const session = await legacySession(await stateWith(messages));
    expect(await refusal(await exportOf(session))).toEqual([
      409,
      {
        code: "STATE_UNUSABLE",
        message: "This session cannot be moved into storage (SESSION_TOO_LARGE)",
      },
    ]);
    const head = await runInDurableObject(stub(session.sessionId), (_instance, state) =>
      state.storage.sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM session_messages").one(),
    );
    expect(head.count).toBe(0);
  });

  it("a move that failed is tried again on the next request", async () => {
    const good = await stateWith(conversation(4));
    const session = await legacySession({ ...good, messages: [{ id: "x" } as unknown as Message] });
    const [status, error] = await refusal(await exportOf(session));
    expect([status, error.code]).toEqual([409, "STATE_UNUSABLE"]);
    await legacySession(good, session);
    expect((await exported(session)).messages).toEqual(good.messages);
  });

  it("a move out of the object's chunks rewrites the KV entry small and writes the KV copy", async () => {
    const messages = conversation(6);
    const session = await legacySession(await stateWith(conversation(2)));
    const state = { ...(await stateWith(messages)), sessionId: session.sessionId };
    const record = JSON.stringify({ tokenDigest: await tokenDigest(session.token), state });
    await runInDurableObject(stub(session.sessionId), async (_instance, object) => {
      await object.storage.put({ "record:0": record, "record:count": 1 });
    });
    expect((await exported(session)).messages).toEqual(messages);
    const entry = JSON.parse((await env.SESSIONS.get(`session:${session.sessionId}`)) ?? "{}");
    expect(Object.keys(entry)).toEqual(["tokenDigest"]);
    await until(async () => {
      const index = await env.SESSIONS.get<{ messageCount: number }>(`copy:${session.sessionId}`, "json");
      return index?.messageCount === 6;
    });
  });
});

describe("a listed session whose object lost its storage", () => {
  it("keeps its client when restored from the KV copy: a delete then takes it off the client's list", async () => {
    const client = newToken();
    const created = await call("/api/sessions", { method: "POST", headers: { "wisp-client": client } });
    expect(created.status).toBe(201);
    const session = await created.json<Session>();
    await readEvents(await send(session, "What is 2 + 3?"));
    const count = (await exported(session)).messages.length;
    await until(async () => {
      const index = await env.SESSIONS.get<{ messageCount: number }>(`copy:${session.sessionId}`, "json");
      return index?.messageCount === count;
    });
    await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
      await state.storage.deleteAll();
    });
    await evictDurableObject(stub(session.sessionId));
    expect((await exported(session)).messages).toHaveLength(count);
    expect(
      await runInDurableObject(stub(session.sessionId), (_i, state) => state.storage.get("kv:client")),
    ).toBe(await tokenDigest(client));
    expect((await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"))).status).toBe(
      204,
    );
    const listed = await call("/api/sessions", auth(client));
    const { sessions } = await listed.json<{ sessions: { sessionId: string }[] }>();
    expect(sessions.map((summary) => summary.sessionId)).not.toContain(session.sessionId);
  });
});
