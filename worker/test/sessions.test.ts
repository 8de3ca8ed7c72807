/**
 * The demo API inside workerd: create, stream a run, export, import, delete, and auth.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { auth, call, createSession, readEvents, send } from "./api.ts";

describe("a session", () => {
  it("is created with an id and a token; KV holds the token's digest, never the token or the state", async () => {
    const session = await createSession();
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.token.length).toBeGreaterThanOrEqual(43);
    const stored = await env.SESSIONS.get(`session:${session.sessionId}`);
    expect(stored).not.toBeNull();
    expect(stored).not.toContain(session.token);
    expect(Object.keys(JSON.parse(stored ?? "{}"))).toEqual(["tokenDigest"]);
    const exported = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
    expect(await exported.json()).toMatchObject({ version: 2, messages: [], pendingApprovals: [] });
  });

  it("streams a run with tool calls as SSE and saves the conversation", async () => {
    const session = await createSession();
    const response = await send(session, "What is 12 * 7, and the time in Europe/Oslo?");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { events } = await readEvents(response);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe("run-start");
    expect(names).toContain("text-delta");
    const results = events.filter((event) => event.event === "tool-result").map((event) => event.data);
    expect(results.map((result) => result.name).sort()).toEqual(["calculator", "clock"]);
    expect(results.find((result) => result.name === "calculator")?.output).toBe("84");
    const end = events.at(-1);
    expect(end).toMatchObject({
      event: "run-end",
      data: { ok: true, stopReason: "complete", turns: 2, saved: true },
    });
    expect(String(end?.data.text)).toContain("84");

    const exported = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
    expect(exported.status).toBe(200);
    const state = await exported.json<{ messages: Array<{ role: string }> }>();
    expect(state.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "assistant",
    ]);
  });

  it("starts each run with its prompt and the count of messages before it (to redraw a replay)", async () => {
    const session = await createSession();
    const first = (await readEvents(await send(session, "What is 2 + 2?"))).events;
    expect(first[0]).toMatchObject({
      event: "run-start",
      data: { prompt: "What is 2 + 2?", messagesBefore: 0 },
    });
    const second = (await readEvents(await send(session, "Hello"))).events;
    expect(second[0]).toMatchObject({ event: "run-start", data: { prompt: "Hello", messagesBefore: 4 } });
  });
});
