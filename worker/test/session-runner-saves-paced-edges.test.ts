/**
 * The SessionRunner's saves during a run that takes longer than KV's one write a second
 * (worker/session-runner.ts #save): each save schedules the KV copy, so the copy taken while the run
 * streamed is replaced by the finished session. Runs in "worker-paced": the demo model streams at
 * 35 ms a word.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSession, readEvents, send } from "./api.ts";
import { exported, until } from "./conversations.ts";

describe("the KV copy of a run that takes time", () => {
  it("ends holding the finished session, not what the copy during the run saw", async () => {
    const session = await createSession();
    const { events } = await readEvents(await send(session, "Tell me about Wisp"));
    expect(events.at(-1)?.data).toMatchObject({ ok: true, saved: true });
    const finished = await exported(session);
    expect(finished.messages.length).toBeGreaterThan(0);
    await until(async () => {
      const index = await env.SESSIONS.get<{ messageCount: number }>(`copy:${session.sessionId}`, "json");
      return index?.messageCount === finished.messages.length;
    });
  });
});
