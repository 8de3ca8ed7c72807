/**
 * Edges of the SessionRunner Durable Object's dispatch and #head, called on its stub directly: a
 * session that was never stored, and one asked for after it was deleted, answer 404 NOT_FOUND with
 * the message a client sees; an import over the size cap is 413 and names the cap, and one that cannot be
 * stored is 503; which refusals of a run are answered before its stream (a fork at no message) and which
 * are left to the stream.
 */
import { env } from "cloudflare:test";
import { env as workerEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SessionState } from "wisp-agent";
import type { RunnerCommand, SessionRunner } from "../session-runner.ts";
import { sessionCharLimit } from "../session-store.ts";
import { auth, call, createSession, json, readEvents, refusal } from "./api.ts";

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

describe("SessionRunner #create, storage refused", () => {
  it("answers 503 STORAGE_FAILED when the session cannot be stored (its object was deleted)", async () => {
    const session = await createSession();
    const state = await (
      await call(`/api/sessions/${session.sessionId}/export`, auth(session.token))
    ).json<SessionState>();
    expect((await send(session.sessionId, { op: "delete", sessionId: session.sessionId })).status).toBe(204);
    const created = await send(session.sessionId, {
      op: "create",
      sessionId: session.sessionId,
      tokenDigest: "0".repeat(64),
      state,
    });
    expect(await refusal(created)).toEqual([
      503,
      { code: "STORAGE_FAILED", message: "The session could not be stored; try again" },
    ]);
  });
});

describe("SessionRunner refusals of a run", () => {
  it("answers a fork at a message the session does not hold with 400 BRANCH_INVALID before any event", async () => {
    const session = await createSession();
    const response = await call(
      `/api/sessions/${session.sessionId}/messages`,
      json("POST", { text: "Hello", parentId: "no-such-message" }, session.token),
    );
    const [status, error] = await refusal(response);
    expect(status).toBe(400);
    expect(error.code).toBe("BRANCH_INVALID");
  });

  it("leaves any other refusal to the run's stream: an empty prompt sent to the runner ends its run failed", async () => {
    const { sessionId } = await createSession();
    const response = await send(sessionId, { op: "run", sessionId, text: "   " });
    expect(response.status).toBe(200);
    const { events } = await readEvents(response);
    expect(events.at(-1)?.data).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID" } });
  });
});
