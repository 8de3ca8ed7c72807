/**
 * A session whose stored rows the SDK refuses when a run loads them (worker/session-runner.ts
 * #sessionFor): here a pause whose approval signature was altered in storage. The run is 409
 * STATE_UNUSABLE and the session is listed as closed, in its KV entry too.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newToken } from "../tokens.ts";
import { auth, call, json, readEvents, refusal, send } from "./api.ts";
import { type Session, stub, until } from "./conversations.ts";

describe("stored rows the SDK refuses", () => {
  it("make the next run 409 STATE_UNUSABLE and list the session as closed", async () => {
    const client = newToken();
    const created = await call("/api/sessions", { method: "POST", headers: { "wisp-client": client } });
    const session = await created.json<Session>();
    const { events } = await readEvents(await send(session, 'Please send "lunch at noon?" to Ada'));
    const id = String(events.find((event) => event.event === "approval-requested")?.data.id);
    await runInDurableObject(stub(session.sessionId), (_instance, state) => {
      const [row] = state.storage.sql.exec<{ head: string }>("SELECT head FROM session_head").toArray();
      const head = JSON.parse(row?.head ?? "{}") as { pendingApprovals: Array<{ signature: string }> };
      for (const approval of head.pendingApprovals) approval.signature = `x${approval.signature.slice(1)}`;
      state.storage.sql.exec("UPDATE session_head SET head = ?", JSON.stringify(head));
    });
    await evictDurableObject(stub(session.sessionId));
    const status = async () => {
      const listed = await call("/api/sessions", auth(client));
      const { sessions } = await listed.json<{ sessions: Array<{ sessionId: string; status: string }> }>();
      return sessions.find((entry) => entry.sessionId === session.sessionId)?.status;
    };
    await until(async () => (await status()) === "paused");
    const decided = await call(
      `/api/sessions/${session.sessionId}/approvals`,
      json("POST", { decisions: [{ toolCallId: id, decision: "allow" }] }, session.token),
    );
    const [code, error] = await refusal(decided);
    expect([code, error.code]).toEqual([409, "STATE_UNUSABLE"]);
    await until(async () => (await status()) === "closed");
  });
});
