/**
 * The SessionRunner's KV copy after a fork (worker/session-runner.ts #copyToKv): a copy after a fork
 * rewrites the pages from the first replaced message even when an earlier copy held more messages,
 * so a session whose object lost its storage is restored from KV as it was.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionState } from "wisp-agent";
import { conversation, exported, imported, runEnd, type Session, stub, until } from "./conversations.ts";

/** Waits until the KV copy's index holds `messageCount` messages. */
async function copiedUpTo(session: Session, messageCount: number): Promise<void> {
  await until(async () => {
    const index = await env.SESSIONS.get<{ messageCount: number }>(`copy:${session.sessionId}`, "json");
    return index?.messageCount === messageCount;
  });
}

/** The session as restored from its KV copy alone: the object's storage is dropped first. */
async function restoredFromKv(session: Session): Promise<SessionState> {
  await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
    await state.storage.deleteAll();
  });
  await evictDurableObject(stub(session.sessionId));
  return exported(session);
}

describe("the KV copy of a forked session", () => {
  it("a fork after a copy of 600 messages rewrites the first page: the copy restores the fork", async () => {
    const session = await imported(conversation(600));
    await copiedUpTo(session, 600);
    expect(await runEnd(session, "What is 2 + 3?", "a1")).toMatchObject({ ok: true, saved: true });
    const forked = await exported(session);
    expect(forked.messages[2]?.role).toBe("user");
    await copiedUpTo(session, forked.messages.length);
    expect(await restoredFromKv(session)).toEqual(forked);
  });
});
