/**
 * Edges of the SessionRunner Durable Object's dispatch and #head, called on its stub directly: a
 * session that was never stored, and one asked for after it was deleted, answer 404 NOT_FOUND with
 * the message a client sees; an import over the size cap is 413 and names the cap.
 */
import { env } from "cloudflare:test";
import { env as workerEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RunnerCommand, SessionRunner } from "../session-runner.ts";
import { sessionCharLimit } from "../session-store.ts";
import { auth, call, createSession, json } from "./api.ts";

function stub(sessionId: string): DurableObjectStub<SessionRunner> {
  return env.RUNNER.get(env.RUNNER.idFromName(sessionId)) as DurableObjectStub<SessionRunner>;
}

function send(sessionId: string, command: RunnerCommand): Promise<Response> {
  return stub(sessionId).fetch("http://runner/", { method: "POST", body: JSON.stringify(command) });
}

describe("SessionRunner #head", () => {
  it("answers 404 NOT_FOUND 'No such session' for a session never stored", async () => {
    const sessionId = crypto.randomUUID();
    const response = await send(sessionId, { op: "export", sessionId });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "No such session" } });
  });

  it("answers 404 NOT_FOUND 'No such session' once the session was deleted", async () => {
    const { sessionId } = await createSession();
    expect((await send(sessionId, { op: "export", sessionId })).status).toBe(200);
    expect((await send(sessionId, { op: "delete", sessionId })).status).toBe(204);
    const response = await send(sessionId, { op: "export", sessionId });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "No such session" } });
  });
});

describe("SessionRunner #create", () => {
  it("refuses an import over the cap with 413 SESSION_TOO_LARGE naming the cap in characters", async () => {
    const cap = sessionCharLimit(workerEnv.SESSION_MAX_CHARS);
    const session = await createSession();
    const state = await (
      await call(`/api/sessions/${session.sessionId}/export`, auth(session.token))
    ).json<object>();
    const big = {
      id: "big",
      role: "user",
      content: [{ type: "text", text: "x".repeat(cap + 10) }],
      timestamp: 1,
    };
    const response = await call("/api/sessions/import", json("POST", { ...state, messages: [big] }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "SESSION_TOO_LARGE", message: `A stored session may take ${cap} characters of JSON` },
    });
  });
});
