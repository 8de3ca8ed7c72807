/**
 * Auth, import, delete and bad input through the demo API inside workerd: every bad request is a 4xx
 * with `{ error: { code, message } }` — never a 500 or a stack trace — and CORS is explicit.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_IMPORT_BODY, MAX_MESSAGE_BODY } from "../api-error.ts";
import { auth, call, createSession, json, readEvents, send } from "./api.ts";

async function expectError(response: Response, status: number, code: string, path?: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await response.json<{ error: { code: string; message: string; path?: string } }>();
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(/\S/);
  expect(JSON.stringify(body)).not.toMatch(/at \S+ \(|\.ts:\d+/); // no stack trace
  if (path !== undefined) expect(body.error.path).toBe(path);
}

describe("auth", () => {
  it("no token is 401; a wrong token, another session's token and an unknown session are the same 404", async () => {
    const mine = await createSession();
    const theirs = await createSession();
    const path = `/api/sessions/${mine.sessionId}/export`;
    await expectError(await call(path), 401, "UNAUTHORIZED");
    await expectError(await call(path, auth("not-the-token")), 404, "NOT_FOUND");
    await expectError(await call(path, auth(theirs.token)), 404, "NOT_FOUND");
    await expectError(
      await call(`/api/sessions/${crypto.randomUUID()}/export`, auth(mine.token)),
      404,
      "NOT_FOUND",
    );
    await expectError(await call("/api/sessions/../../etc/export", auth(mine.token)), 404, "NOT_FOUND");
    await expectError(await send({ ...mine, token: theirs.token }, "hi"), 404, "NOT_FOUND");
    await expectError(
      await call(`/api/sessions/${mine.sessionId}/cancel`, auth(theirs.token, "POST")),
      404,
      "NOT_FOUND",
    );
    expect((await call(path, auth(mine.token))).status).toBe(200);
  });

  it.each(["bearer", "BEARER", "  Bearer  "])(
    "the auth scheme %j works (it is case-insensitive)",
    async (scheme) => {
      const mine = await createSession();
      const response = await call(`/api/sessions/${mine.sessionId}/export`, {
        headers: { authorization: `${scheme} ${mine.token}` },
      });
      expect(response.status).toBe(200);
    },
  );
});

describe("import and delete", () => {
  it("an exported session imports as a new session that continues the conversation", async () => {
    const original = await createSession();
    await readEvents(await send(original, "What is 6 * 7?"));
    const state = await (
      await call(`/api/sessions/${original.sessionId}/export`, auth(original.token))
    ).json<{
      sessionId: string;
      messages: unknown[];
    }>();
    const imported = await call("/api/sessions/import", json("POST", state));
    expect(imported.status).toBe(201);
    const copy = await imported.json<{ sessionId: string; token: string }>();
    expect(copy.sessionId).not.toBe(original.sessionId); // an import never overwrites a session
    expect(copy.token).not.toBe(original.token);
    const next = await readEvents(await send(copy, "And 2 + 2?"));
    expect(next.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true, messageCount: 8 } });
    // The original is untouched.
    const again = await (
      await call(`/api/sessions/${original.sessionId}/export`, auth(original.token))
    ).json<{
      messages: unknown[];
    }>();
    expect(again.messages).toHaveLength(state.messages.length);
  });

  it.each([
    [{ version: 3 }, "version"],
    [{ version: 1, sessionId: "x" }, "createdAt"],
    ["[1, 2]", ""],
  ])("an invalid state (%j) is 400 CONFIG_INVALID naming the path %s", async (body, path) => {
    const response = await call("/api/sessions/import", json("POST", body));
    await expectError(response, 400, "CONFIG_INVALID", path === "" ? undefined : path);
  });

  it("a state whose tool call has no result is 400 naming the message", async () => {
    const session = await createSession();
    await readEvents(await send(session, "What is 6 * 7?"));
    const state = await (await call(`/api/sessions/${session.sessionId}/export`, auth(session.token))).json<{
      messages: unknown[];
    }>();
    state.messages.splice(2, 1); // drop the tool results
    await expectError(
      await call("/api/sessions/import", json("POST", state)),
      400,
      "CONFIG_INVALID",
      "messages.1",
    );
  });

  it("delete removes the session from KV; later calls are 404", async () => {
    const session = await createSession();
    const deleted = await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"));
    expect(deleted.status).toBe(204);
    expect(await env.SESSIONS.get(`session:${session.sessionId}`)).toBeNull();
    await expectError(await send(session, "hi"), 404, "NOT_FOUND");
  });

  it("delete during a run aborts it and the run does not write the session back", async () => {
    const session = await createSession();
    const running = await readEvents(
      await send(session, "Tell me about Wisp"),
      (event) => event.event === "text-delta",
    );
    const deleted = await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"));
    expect(deleted.status).toBe(204);
    await running.reader.cancel();
    expect(await env.SESSIONS.get(`session:${session.sessionId}`)).toBeNull();
  });
});

describe("bad input", () => {
  it("malformed JSON, a wrong content type, wrong types and missing fields are 4xx naming the problem", async () => {
    const session = await createSession();
    const path = `/api/sessions/${session.sessionId}/messages`;
    await expectError(await call(path, json("POST", "{not json", session.token)), 400, "MALFORMED_JSON");
    await expectError(
      await call(path, { method: "POST", headers: { authorization: `Bearer ${session.token}` }, body: "hi" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    await expectError(
      await call(path, json("POST", { text: 42 }, session.token)),
      400,
      "INVALID_REQUEST",
      "text",
    );
    await expectError(await call(path, json("POST", {}, session.token)), 400, "INVALID_REQUEST", "text");
    await expectError(
      await call(path, json("POST", { text: "  " }, session.token)),
      400,
      "INVALID_REQUEST",
      "text",
    );
    await expectError(await call(path, json("POST", [1], session.token)), 400, "INVALID_REQUEST");
    await expectError(await call(path, json("POST", "null", session.token)), 400, "INVALID_REQUEST");
    await expectError(
      await call(path, json("POST", { text: "x".repeat(40_000) }, session.token)),
      400,
      "INVALID_REQUEST",
      "text",
    );
  });

  it("a 30,000-character CJK prompt (90 KB of UTF-8) within the 32,000-character limit is accepted", async () => {
    const session = await createSession();
    const response = await send(session, "漢".repeat(30_000));
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it("bodies over the documented sizes are 413, whatever content-length claims", async () => {
    const session = await createSession();
    const big = JSON.stringify({ text: "x".repeat(MAX_MESSAGE_BODY) });
    await expectError(
      await call(`/api/sessions/${session.sessionId}/messages`, json("POST", big, session.token)),
      413,
      "BODY_TOO_LARGE",
    );
    // A streamed body with no content-length is cut off at the limit too.
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > MAX_IMPORT_BODY / chunk.length + 1) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await call("/api/sessions/import", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectError(response, 413, "BODY_TOO_LARGE");
  });

  it("unknown routes are JSON 404s; a known route asked with another method is a JSON 405", async () => {
    const session = await createSession();
    await expectError(await call("/api/nothing"), 404, "NOT_FOUND");
    await expectError(await call("/api/sessions", { method: "PUT" }), 405, "METHOD_NOT_ALLOWED");
    await expectError(
      await call(`/api/sessions/${session.sessionId}/fly`, auth(session.token, "POST")),
      404,
      "NOT_FOUND",
    );
  });
});

describe("CORS", () => {
  it("answers no other origin unless ALLOWED_ORIGINS lists it", async () => {
    const preflight = await call("/api/sessions", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const plain = await call("/api/info", { headers: { origin: "https://evil.example" } });
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("info", () => {
  it("names the scripted model when no provider key is set", async () => {
    expect(await (await call("/api/info")).json()).toEqual({
      model: "anthropic/claude-sonnet-4-5",
      scripted: true,
    });
  });
});
