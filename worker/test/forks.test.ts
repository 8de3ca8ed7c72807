/**
 * A forked session in the Durable Object's rows (docs/forks.md): a fork saves both branches; the
 * other branches have rows of their own, so the next turn writes its messages and not them; a switch
 * rewrites the message rows and is read back after the object is evicted; the KV copy, rewritten whole
 * after a fork (or a switch), restores the session with its branches when the object lost its storage.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, json } from "./api.ts";
import { conversation, exported, imported, runEnd, type Session, stub } from "./conversations.ts";

async function switchTo(session: Session, leafId: string): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/branches`, json("POST", { leafId }, session.token));
}

describe("a forked session in rows", () => {
  it("a fork saves both branches; the next turn writes its own messages, not the branches", async () => {
    const session = await imported(conversation(2_000));
    const fork = await runEnd(session, "What is 2 + 3?", "a1");
    expect(fork).toMatchObject({ ok: true, saved: true });
    const state = await exported(session);
    expect(state.messages.slice(0, 2).map((message) => message.id)).toEqual(["u0", "a1"]);
    expect(state.branches).toHaveLength(1);
    expect(state.branches?.[0]?.parentId).toBe("a1");
    expect(state.branches?.[0]?.messages).toHaveLength(1_998);
    const branchChars = JSON.stringify(state.branches).length;
    expect(branchChars).toBeGreaterThan(800_000);

    const next = await runEnd(session, "What is 3 * 3?");
    expect(next).toMatchObject({ ok: true, saved: true });
    expect(next.savedChars).toBeGreaterThan(0);
    expect(next.savedChars).toBeLessThan(branchChars / 50);
    const after = await exported(session);
    expect(after.branches).toEqual(state.branches);
    expect(after.messages.slice(0, state.messages.length)).toEqual(state.messages);
  });

  it("a switch rewrites the message rows and is read back after the object is evicted", async () => {
    const session = await imported(conversation(6));
    await runEnd(session, "What is 2 + 3?", "a3");
    const forked = await exported(session);
    const switched = await switchTo(session, "a5");
    expect(switched.status).toBe(200);
    const { branches } = await switched.json<{ branches: { leafId: string; active: boolean }[] }>();
    expect(branches.find((branch) => branch.active)?.leafId).toBe("a5");
    const state = await exported(session);
    expect(state.messages.map((message) => message.id)).toEqual(["u0", "a1", "u2", "a3", "u4", "a5"]);
    expect(state.branches?.[0]?.parentId).toBe("a3");
    expect(state.branches?.[0]?.messages).toEqual(forked.messages.slice(4));
    await evictDurableObject(stub(session.sessionId));
    expect(await exported(session)).toEqual(state);
    const rows = await runInDurableObject(stub(session.sessionId), (_instance, durable) =>
      durable.storage.sql
        .exec<{ count: number }>("SELECT COUNT(DISTINCT seq) AS count FROM session_messages")
        .one(),
    );
    expect(rows.count).toBe(6);
    expect((await switchTo(session, "u0")).status).toBe(400);
  });

  it("the KV copy, rewritten whole after a fork, restores the session with its branches", async () => {
    const session = await imported(conversation(300));
    await runEnd(session, "What is 2 + 3?", "a1");
    const before = await exported(session);
    expect(before.messages).toHaveLength(6);
    const copied = async () => {
      const index = await env.SESSIONS.get<{ messageCount: number; head: string }>(
        `copy:${session.sessionId}`,
        "json",
      );
      return index?.messageCount === 6 && index.head.includes('"branches"');
    };
    for (let waited = 0; !(await copied()); waited += 50) {
      if (waited > 10_000) throw new Error("the KV copy did not catch up");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
      await state.storage.deleteAll();
    });
    await evictDurableObject(stub(session.sessionId));
    expect(await exported(session)).toEqual(before);
  });
});
