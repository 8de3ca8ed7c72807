/**
 * Runs through the demo API inside workerd: cancel after the grace period with nobody attached and at
 * once by request (from any connection), one run per session (409), and a session that stays consistent and continues after.
 */
import { describe, expect, it } from "vitest";
import { auth, call, createSession, readEvents, send, streamOf } from "./api.ts";

const LONG = "Tell me about Wisp";

interface State {
  messages: Array<{ role: string; stopReason?: string; content: Array<{ type: string; text?: string }> }>;
}

async function exported(session: { sessionId: string; token: string }): Promise<State> {
  const response = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
  expect(response.status).toBe(200);
  return response.json<State>();
}

/** Waits until the session's last message is an assistant message that ended with `stopReason`. */
async function settled(session: { sessionId: string; token: string }, stopReason: string): Promise<State> {
  let state: State = { messages: [] };
  await expect
    .poll(
      async () => {
        state = await exported(session);
        return state.messages.at(-1)?.stopReason;
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(stopReason);
  return state;
}

describe("cancellation", () => {
  it("a run nobody is attached to is cancelled after the grace period; the partial answer is kept and the session continues", async () => {
    const session = await createSession();
    const controller = new AbortController();
    const response = await send(session, LONG, controller.signal);
    const { events, reader } = await readEvents(response, (event) => event.event === "text-delta");
    expect(events.at(-1)?.event).toBe("text-delta");
    await reader.cancel();
    controller.abort();
    const state = await settled(session, "aborted");
    const partial =
      state.messages
        .at(-1)
        ?.content.map((part) => part.text ?? "")
        .join("") ?? "";
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(400); // the long answer (about 600 characters) was cut

    const next = await readEvents(await send(session, "What is 2 + 3?"));
    expect(next.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });
  });

  it("a cancel request from another connection aborts the run", async () => {
    const session = await createSession();
    const response = await send(session, LONG);
    const first = await readEvents(response, (event) => event.event === "text-delta");
    const cancel = await call(`/api/sessions/${session.sessionId}/cancel`, auth(session.token, "POST"));
    expect(await cancel.json()).toEqual({ cancelled: true });
    const rest = await readEvents(new Response(streamOf(first.reader)));
    const end = rest.events.at(-1);
    expect(end).toMatchObject({
      event: "run-end",
      data: { ok: false, stopReason: "aborted", error: { code: "ABORTED" } },
    });
    await settled(session, "aborted");
  });

  it("a cancel with nothing running says so", async () => {
    const session = await createSession();
    const cancel = await call(`/api/sessions/${session.sessionId}/cancel`, auth(session.token, "POST"));
    expect(await cancel.json()).toEqual({ cancelled: false });
  });
});

describe("one run per session", () => {
  it("a second message while a run is in flight is 409 SESSION_BUSY; other sessions are not held up", async () => {
    const session = await createSession();
    const response = await send(session, LONG);
    const first = await readEvents(response, (event) => event.event === "text-delta");
    const second = await send(session, "me too");
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: "SESSION_BUSY" } });

    const other = await createSession();
    const elsewhere = await readEvents(await send(other, "What is 1 + 1?"));
    expect(elsewhere.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });

    await call(`/api/sessions/${session.sessionId}/cancel`, auth(session.token, "POST"));
    await first.reader.cancel();
  });
});
