/**
 * What a SessionRunner run tells its client (worker/session-runner.ts #pump, #attach): run-end's
 * savedChars counts the run's new messages, a question that waits is shown without its digest and
 * signature; a client reattaching gets an event stream, or 404 NO_RUN with what to do instead.
 */
import { describe, expect, it } from "vitest";
import { auth, call, createSession, refusal } from "./api.ts";
import { exported, runEnd } from "./conversations.ts";

describe("run-end", () => {
  it("counts in savedChars at least the characters of the messages the run added", async () => {
    const session = await createSession();
    const end = await runEnd(session, "Hello");
    expect(end).toMatchObject({ ok: true, saved: true });
    const { messages } = await exported(session);
    const added = messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
    expect(messages.length).toBeGreaterThan(0);
    expect(end.savedChars).toBeGreaterThanOrEqual(added);
  });

  it("shows the questions that wait by their call, without their digest or signature", async () => {
    const session = await createSession();
    const end = (await runEnd(session, "ask me something")) as unknown as {
      pendingQuestions: Array<Record<string, unknown>>;
    };
    expect(end.pendingQuestions).toHaveLength(1);
    const [question] = end.pendingQuestions;
    expect(question?.toolCallId).toEqual(expect.any(String));
    expect(question).not.toHaveProperty("digest");
    expect(question).not.toHaveProperty("signature");
  });
});

describe("reattaching", () => {
  it("gets the last run's events as an event stream", async () => {
    const session = await createSession();
    await runEnd(session, "Hello");
    const response = await call(`/api/sessions/${session.sessionId}/events`, auth(session.token));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    await response.body?.cancel();
  });

  it("with no run to attach to is 404 NO_RUN, saying to load the state instead", async () => {
    const session = await createSession();
    const response = await call(`/api/sessions/${session.sessionId}/events`, auth(session.token));
    expect(await refusal(response)).toEqual([
      404,
      { code: "NO_RUN", message: "No run to attach to: load the session's state instead" },
    ]);
  });
});
