/**
 * The Worker's side of forks (worker/session-branches.ts) through the API: a fork's `run-start`
 * counts the messages before the fork; a `parentId` or a switch body that is not well formed is a 400
 * naming the field; a switch refused because tool calls wait for approval is a 409, an unknown leaf
 * a 400.
 */
import { describe, expect, it } from "vitest";
import type { Message, SessionState } from "wisp-agent";
import { auth, call, createSession, json, readEvents, send } from "./api.ts";
import { conversation, type Session } from "./conversations.ts";

async function imported(messages: Message[]): Promise<Session> {
  const fresh = await createSession();
  const state = await (
    await call(`/api/sessions/${fresh.sessionId}/export`, auth(fresh.token))
  ).json<SessionState>();
  const response = await call("/api/sessions/import", json("POST", { ...state, messages }));
  expect(response.status).toBe(201);
  return response.json<Session>();
}

function message(session: Session, body: unknown): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/messages`, json("POST", body, session.token));
}

function switchWith(session: Session, body: unknown): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/branches`, json("POST", body, session.token));
}

async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; message: string; path?: string }> {
  const body = await response.json<{ error: { code: string; message: string; path?: string } }>();
  return { status: response.status, ...body.error };
}

describe("a fork's run-start", () => {
  it("counts the messages up to the fork's parent, and none for a fork at the start", async () => {
    const session = await imported(conversation(6));
    const atA3 = await readEvents(await message(session, { text: "What is 2 + 3?", parentId: "a3" }));
    expect(atA3.events[0]).toMatchObject({ event: "run-start", data: { parentId: "a3", messagesBefore: 4 } });
    expect(atA3.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });

    const atStart = await readEvents(await message(session, { text: "What is 3 * 3?", parentId: null }));
    expect(atStart.events[0]).toMatchObject({
      event: "run-start",
      data: { parentId: null, messagesBefore: 0 },
    });
    expect(atStart.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });
  });
});

describe("bad fork and switch requests", () => {
  it.each([[""], [5], [false], [{ id: "a1" }]])(
    "a parentId of %j is a 400 naming parentId, before anything runs",
    async (parentId) => {
      const session = await imported(conversation(4));
      expect(await errorOf(await message(session, { text: "hi", parentId }))).toEqual({
        status: 400,
        code: "INVALID_REQUEST",
        message: "parentId must be a message id or null",
        path: "parentId",
      });
      const state = await (
        await call(`/api/sessions/${session.sessionId}/export`, auth(session.token))
      ).json<SessionState>();
      expect(state.messages.map((each) => each.id)).toEqual(["u0", "a1", "u2", "a3"]);
    },
  );

  it.each([[[]], [null], [JSON.stringify("a1")], [7], [{}], [{ leafId: 5 }], [{ leaf: "a1" }]])(
    "a switch body of %j is a 400 naming leafId",
    async (body) => {
      const session = await createSession();
      expect(await errorOf(await switchWith(session, body))).toEqual({
        status: 400,
        code: "INVALID_REQUEST",
        message: "The body must be an object { leafId }",
        path: "leafId",
      });
    },
  );
});

describe("a refused switch", () => {
  it("is a 409 APPROVAL_PENDING while tool calls wait for approval, a 400 BRANCH_INVALID for no leaf", async () => {
    const session = await createSession();
    const { events } = await readEvents(await send(session, 'Please send "lunch at noon?" to Ada'));
    expect(events.at(-1)).toMatchObject({ event: "run-end", data: { stopReason: "approval" } });
    const refused = await errorOf(await switchWith(session, { leafId: "no-such-message" }));
    expect(refused).toMatchObject({ status: 409, code: "APPROVAL_PENDING" });

    const idle = await imported(conversation(4));
    expect(await errorOf(await switchWith(idle, { leafId: "u0" }))).toMatchObject({
      status: 400,
      code: "BRANCH_INVALID",
      path: "leafId",
    });
  });
});
