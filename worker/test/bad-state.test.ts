/**
 * A stored session the SDK will not restore (written by an older or broken deployment: here, a KV
 * entry of before rows holding the whole state) is answered with a clear JSON error, never a bare
 * 500, and the session can still be deleted.
 */
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { auth, call, createSession, send } from "./api.ts";

it("a message to a session whose stored state cannot be restored is 409 STATE_UNUSABLE in the API's shape", async () => {
  const created = await createSession();
  const state = await (
    await call(`/api/sessions/${created.sessionId}/export`, auth(created.token))
  ).json<object>();
  const session = { sessionId: crypto.randomUUID(), token: created.token };
  const tokenDigest = JSON.parse(
    (await env.SESSIONS.get(`session:${created.sessionId}`)) ?? "{}",
  ).tokenDigest;
  const messages = [{ id: "m", role: "robot", content: [], timestamp: 1 }];
  const record = { tokenDigest, state: { ...state, sessionId: session.sessionId, messages } };
  await env.SESSIONS.put(`session:${session.sessionId}`, JSON.stringify(record));

  const response = await send(session, "hello");
  expect(response.status).toBe(409);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(await response.json()).toEqual({
    error: {
      code: "STATE_UNUSABLE",
      message: expect.stringContaining("messages.0.role: expected one of user, assistant, tool_result"),
      path: "messages.0.role",
    },
  });
  const removed = await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"));
  expect(removed.status).toBe(204);
});
