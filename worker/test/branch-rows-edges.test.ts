/**
 * A session's other branches in their own rows (worker/branch-rows.ts): a session never forked
 * leaves no branch rows; branches larger than one stored part read back whole; a switch between
 * branches that hang from the same message and are as long rewrites the rows, so the branches read
 * back after the object is evicted are the switched ones.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Message, StoredBranch } from "wisp-agent";
import { call, createSession, json, readEvents, send } from "./api.ts";
import { exported, type Session, stub } from "./conversations.ts";

function user(id: string, text: string, timestamp: number): Message {
  return { id, role: "user", content: [{ type: "text", text }], timestamp };
}

function assistant(id: string, text: string, timestamp: number): Message {
  return {
    id,
    role: "assistant",
    content: [{ type: "text", text }],
    timestamp,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    stopReason: "complete",
    usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
  };
}

/** `count` messages (`u0`, `a1`, …), each about `chars` characters of text. */
function conversation(count: number, chars: number): Message[] {
  return Array.from({ length: count }, (_, index) => {
    const text = `message ${index} `.padEnd(chars, "lorem ipsum ");
    return index % 2 === 0 ? user(`u${index}`, text, index) : assistant(`a${index}`, text, index);
  });
}

async function imported(messages: Message[], branches?: StoredBranch[]): Promise<Session> {
  const state = await exported(await createSession());
  const body = branches === undefined ? { ...state, messages } : { ...state, messages, branches };
  const response = await call("/api/sessions/import", json("POST", body));
  expect(response.status).toBe(201);
  return response.json<Session>();
}

/** How many rows each branch table of the session's Durable Object holds. */
function branchRowCounts(session: Session): Promise<{ parts: number; index: number }> {
  return runInDurableObject(stub(session.sessionId), (_instance, state) => ({
    parts: state.storage.sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM session_branches").one()
      .count,
    index: state.storage.sql
      .exec<{ count: number }>("SELECT COUNT(*) AS count FROM session_branch_index")
      .one().count,
  }));
}

describe("branch rows", () => {
  it("a session never forked leaves no branch rows, after its first turn and its second", async () => {
    const session = await createSession();
    await readEvents(await send(session, "What is 2 + 3?"));
    await readEvents(await send(session, "What is 3 * 3?"));
    expect((await exported(session)).messages.length).toBeGreaterThanOrEqual(4);
    expect(await branchRowCounts(session)).toEqual({ parts: 0, index: 0 });
  });

  it("branches larger than one stored part read back whole, before and after an eviction", async () => {
    const session = await imported(conversation(2_000, 400));
    const before = await exported(session);
    const response = await call(
      `/api/sessions/${session.sessionId}/messages`,
      json("POST", { text: "What is 2 + 3?", parentId: "a1" }, session.token),
    );
    expect((await readEvents(response)).events.at(-1)).toMatchObject({
      event: "run-end",
      data: { saved: true },
    });
    const forked = await exported(session);
    expect(forked.branches).toEqual([{ parentId: "a1", messages: before.messages.slice(2) }]);
    expect(JSON.stringify(forked.branches).length).toBeGreaterThan(512 * 1024);
    await evictDurableObject(stub(session.sessionId));
    expect((await exported(session)).branches).toEqual(forked.branches);
  });

  it("a switch between one-message branches of the same parent stores the branches it leaves", async () => {
    const messages = [user("u0", "hello", 0), assistant("a1", "hi", 1), user("u2", "first", 2)];
    const session = await imported(messages, [
      { parentId: "a1", messages: [user("u2b", "second", 3)] },
      { parentId: "a1", messages: [user("u2c", "third", 4)] },
    ]);
    const switched = await call(
      `/api/sessions/${session.sessionId}/branches`,
      json("POST", { leafId: "u2b" }, session.token),
    );
    expect(switched.status).toBe(200);
    const listed = await switched.json<{ branches: { leafId: string; active: boolean }[] }>();
    expect(listed.branches.map((branch) => [branch.leafId, branch.active])).toEqual([
      ["u2", false],
      ["u2b", true],
      ["u2c", false],
    ]);
    const state = await exported(session);
    expect(state.messages.map((message) => message.id)).toEqual(["u0", "a1", "u2b"]);
    expect(state.branches).toEqual([
      { parentId: "a1", messages: [user("u2c", "third", 4)] },
      { parentId: "a1", messages: [user("u2", "first", 2)] },
    ]);
    await evictDurableObject(stub(session.sessionId));
    expect(await exported(session)).toEqual(state);
  });
});
