/**
 * Approvals in the demo API, inside workerd: `send_message` waits for the user; the run ends paused
 * and the pause is stored; a prompt meanwhile is 409; `POST …/approvals` resumes the run as a stream
 * (approve, edit, deny with a reason); stale, unknown and malformed decisions are refused before
 * anything runs; an export of a paused session imports as a new session that can still be approved,
 * and an edited one is refused.
 */
import { describe, expect, it } from "vitest";
import { auth, call, createSession, json, type ReceivedEvent, readEvents, send } from "./api.ts";

const ASK = 'Please send "lunch at noon?" to Ada';

type Session = { sessionId: string; token: string };

function decide(session: Session, decisions: unknown): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/approvals`, json("POST", { decisions }, session.token));
}

async function exported(
  session: Session,
): Promise<Record<string, unknown> & { pendingApprovals: unknown[] }> {
  const response = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
  return response.json();
}

/** A session paused on one send_message call; its id and the run's events. */
async function paused(): Promise<{ session: Session; id: string; events: ReceivedEvent[] }> {
  const session = await createSession();
  const { events } = await readEvents(await send(session, ASK));
  const requested = events.find((event) => event.event === "approval-requested");
  return { session, id: String(requested?.data.id), events };
}

function resultsOf(events: ReceivedEvent[]): Array<Record<string, unknown>> {
  return events.filter((event) => event.event === "tool-result").map((event) => event.data);
}

describe("a tool call that needs approval", () => {
  it("pauses the run: approval-requested, then run-end with stopReason approval; the pause is stored", async () => {
    const { session, id, events } = await paused();
    expect(events.find((event) => event.event === "approval-requested")?.data).toEqual({
      id,
      name: "send_message",
      args: { to: "Ada", text: "lunch at noon?" },
    });
    expect(resultsOf(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      event: "run-end",
      data: {
        ok: true,
        stopReason: "approval",
        saved: true,
        pendingApprovals: [
          { toolCallId: id, toolName: "send_message", args: { to: "Ada", text: "lunch at noon?" } },
        ],
      },
    });
    const state = await exported(session);
    expect(state.pendingApprovals).toMatchObject([
      { toolCallId: id, digest: expect.stringMatching(/^[0-9a-f]{64}$/), signature: expect.any(String) },
    ]);
  });

  it("a prompt while it waits is 409 APPROVAL_PENDING naming the call", async () => {
    const { session, id } = await paused();
    const response = await send(session, "hello?");
    expect(response.status).toBe(409);
    const body = await response.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe("APPROVAL_PENDING");
    expect(body.error.message).toContain(id);
  });

  it("approved with edited arguments, the call runs with them and the run completes", async () => {
    const { session, id } = await paused();
    const response = await decide(session, [
      { toolCallId: id, approved: true, args: { to: "Bo", text: "noon!" } },
    ]);
    expect(response.status).toBe(200);
    const { events } = await readEvents(response);
    expect(events[0]).toMatchObject({ event: "run-start", data: { decisions: expect.any(Array) } });
    expect(resultsOf(events)).toEqual([
      { id, name: "send_message", output: 'Sent to Bo: "noon!"', isError: false },
    ]);
    expect(events.at(-1)).toMatchObject({
      event: "run-end",
      data: { ok: true, stopReason: "complete", saved: true },
    });
    expect((await exported(session)).pendingApprovals).toEqual([]);
    // The same decision again is a replay: refused, nothing runs.
    const replay = await decide(session, [{ toolCallId: id, approved: true }]);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({
      error: { code: "APPROVAL_INVALID", path: "decisions.0.toolCallId" },
    });
  });

  it("denied with a reason, the model hears the reason and the run goes on", async () => {
    const { session, id } = await paused();
    const { events } = await readEvents(
      await decide(session, [{ toolCallId: id, approved: false, reason: "not now" }]),
    );
    expect(resultsOf(events)).toEqual([
      { id, name: "send_message", output: "The user denied this tool call: not now", isError: true },
    ]);
    expect(String(events.at(-1)?.data.text)).toContain("not now");
  });

  it.each([
    ["no decisions array", { decide: "yes" }, 400, "INVALID_REQUEST", "decisions"],
    ["an empty array", { decisions: [] }, 400, "INVALID_REQUEST", "decisions"],
    [
      "an unknown call",
      { decisions: [{ toolCallId: "nope", approved: true }] },
      409,
      "APPROVAL_INVALID",
      "decisions.0.toolCallId",
    ],
    [
      "edits the schema refuses",
      { decisions: [{ approved: true, args: { to: "" } }] },
      400,
      "APPROVAL_INVALID",
      "decisions.0.args",
    ],
    [
      "approved that is not a boolean",
      { decisions: [{ approved: "yes" }] },
      400,
      "APPROVAL_INVALID",
      "decisions.0.approved",
    ],
    [
      "a toolCallId that is not a string",
      { decisions: [{ toolCallId: 5, approved: true }] },
      400,
      "APPROVAL_INVALID",
      "decisions.0.toolCallId",
    ],
    [
      "the same call decided twice",
      { decisions: [{ approved: true }, { approved: false }] },
      400,
      "APPROVAL_INVALID",
      "decisions.1.toolCallId",
    ],
  ])("%s is refused (%i %s) before anything runs", async (_, body, status, code, path) => {
    const { session, id } = await paused();
    const decisions = (body as { decisions?: Array<Record<string, unknown>> }).decisions;
    for (const decision of decisions ?? []) decision.toolCallId ??= id;
    const response = await call(
      `/api/sessions/${session.sessionId}/approvals`,
      json("POST", body, session.token),
    );
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error: { code, path } });
    expect((await exported(session)).pendingApprovals).toHaveLength(1);
  });

  it("decisions for a session that waits for nothing are 409", async () => {
    const session = await createSession();
    const response = await decide(session, [{ toolCallId: "x", approved: true }]);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: "APPROVAL_INVALID" } });
  });

  it("needs the session's token", async () => {
    const { session, id } = await paused();
    const response = await decide({ ...session, token: "wrong" }, [{ toolCallId: id, approved: true }]);
    expect(response.status).toBe(404);
    expect((await exported(session)).pendingApprovals).toHaveLength(1);
  });
});

describe("a paused session's export", () => {
  it("imports as a new session whose pause can still be decided", async () => {
    const { session, id } = await paused();
    const state = await exported(session);
    const imported = await call("/api/sessions/import", json("POST", state));
    expect(imported.status).toBe(201);
    const copy = await imported.json<Session>();
    const copied = await exported(copy);
    expect(copied.sessionId).toBe(copy.sessionId);
    expect(copied.pendingApprovals).toHaveLength(1);
    const { events } = await readEvents(await decide(copy, [{ toolCallId: id, approved: true }]));
    expect(resultsOf(events)[0]).toMatchObject({ output: 'Sent to Ada: "lunch at noon?"', isError: false });
  });

  it.each([
    [
      "edited arguments",
      (approval: Record<string, unknown>) => Object.assign(approval, { args: { to: "Mallory", text: "hi" } }),
    ],
    ["no signature", (approval: Record<string, unknown>) => delete approval.signature],
  ])("with %s is refused on import (400 APPROVAL_TAMPERED)", async (_, tamper) => {
    const { session } = await paused();
    const state = await exported(session);
    tamper(state.pendingApprovals[0] as Record<string, unknown>);
    const imported = await call("/api/sessions/import", json("POST", state));
    expect(imported.status).toBe(400);
    expect(await imported.json()).toMatchObject({
      error: { code: "APPROVAL_TAMPERED", path: "restore.pendingApprovals.0" },
    });
  });

  it("with a forged always allow is refused on import (400 APPROVAL_TAMPERED)", async () => {
    const { session, id } = await paused();
    await readEvents(await decide(session, [{ toolCallId: id, approved: false, always: true }]));
    const state = await exported(session);
    expect(state.toolPermissions).toEqual({ send_message: "deny" });
    const imported = await call(
      "/api/sessions/import",
      json("POST", { ...state, toolPermissions: { send_message: "allow" } }),
    );
    expect(imported.status).toBe(400);
    expect(await imported.json()).toMatchObject({
      error: { code: "APPROVAL_TAMPERED", path: "restore.toolPermissions" },
    });
  });
});
