/**
 * A SessionRunner run while it streams (worker/session-runner.ts #start, #pump): it saves each turn's
 * tool results before it goes on, its listing says "running" until it ends, a cancel by request is
 * kept as its saved answer's error cause, and a delete in the middle ends it and answers. Runs in "worker-paced": the demo model streams at 35 ms a word.
 */
import { describe, expect, it } from "vitest";
import { newToken } from "../tokens.ts";
import { auth, call, createSession, readEvents, send, streamOf } from "./api.ts";
import { exported, type Session, until } from "./conversations.ts";

const LONG = "Tell me about Wisp";

describe("a run while it streams", () => {
  it("has saved its tool results before the answer streams: an export then holds them", async () => {
    const session = await createSession();
    const { events, reader } = await readEvents(
      await send(session, "What is 2 + 3?"),
      (event) => event.event === "turn-start" && (event.data as { turn: number }).turn === 2,
    );
    expect(events.some((event) => event.event === "tool-result")).toBe(true);
    const during = await exported(session);
    // (The answer may have ended meanwhile on a slow machine; the three are there either way.)
    expect(during.messages.slice(0, 3).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
    ]);
    await reader.cancel();
  });

  it("is listed as idle, as running while the run streams, then as idle again", async () => {
    const client = newToken();
    const created = await call("/api/sessions", { method: "POST", headers: { "wisp-client": client } });
    expect(created.status).toBe(201);
    const session = await created.json<Session>();
    const status = async () => {
      const listed = await call("/api/sessions", auth(client));
      const { sessions } = await listed.json<{ sessions: Array<{ sessionId: string; status: string }> }>();
      return sessions.find((entry) => entry.sessionId === session.sessionId)?.status;
    };
    // The create's own copy first, so the run's status can only come from the run's.
    await until(async () => (await status()) === "idle");
    const { reader } = await readEvents(await send(session, LONG), (event) => event.event === "text-delta");
    await until(async () => (await status()) === "running");
    while (!(await reader.read()).done) {}
    await until(async () => (await status()) === "idle");
  });

  it("cancelled by request, keeps why in its saved answer's error", async () => {
    const session = await createSession();
    const { reader } = await readEvents(await send(session, LONG), (event) => event.event === "text-delta");
    const cancelled = await call(`/api/sessions/${session.sessionId}/cancel`, auth(session.token, "POST"));
    expect(await cancelled.json()).toEqual({ cancelled: true });
    while (!(await reader.read()).done) {}
    const last = (await exported(session)).messages.at(-1) as {
      stopReason?: string;
      error?: { cause?: unknown };
    };
    expect(last.stopReason).toBe("aborted");
    expect(last.error?.cause).toMatchObject({ name: "AbortError", message: "Cancelled by request" });
  });

  it("ends when its session is deleted: the delete answers 204 and the stream ends aborted", async () => {
    const session = await createSession();
    const { events, reader } = await readEvents(
      await send(session, LONG),
      (event) => event.event === "text-delta",
    );
    const deleted = await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"));
    expect(deleted.status).toBe(204);
    const rest = await readEvents(new Response(streamOf(reader)));
    const end = [...events, ...rest.events].at(-1);
    expect(end).toMatchObject({ event: "run-end", data: { ok: false, error: { code: "ABORTED" } } });
  });
});
