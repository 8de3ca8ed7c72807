/**
 * Edges of the Hono app (worker/app.ts): the exact error bodies of its refusals (a bad client secret,
 * a body that is not an object, decisions out of range, a missing bearer, a foreign origin or a wrong
 * method or content type on /mcp), the prompt length limit at its bound, how strictly the Bearer
 * header is read, that only POSTs count against the creation limit, that an import lists at most 20
 * warnings, that a same-origin page and an empty Origin may call /mcp, and the 500 answer (and log
 * line) for an unexpected error.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import ccShort from "../../../shared/fixtures/sessions/claude-code-short.jsonl?raw";
import { createApp } from "../app.ts";
import type { Env } from "../env.ts";
import { auth, call, createSession, json, readEvents } from "./api.ts";

const app = createApp();

/** Calls the app with the test env changed by `overrides`. */
function withEnv(path: string, init: RequestInit, overrides: Record<string, unknown>): Promise<Response> {
  return Promise.resolve(app.fetch(new Request(`http://demo.test${path}`, init), { ...env, ...overrides }));
}

const SECRET = "app-edges-client-secret-0001";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("refusals carry their exact error body", () => {
  it("a malformed wisp-client header on create", async () => {
    const response = await call("/api/sessions", { method: "POST", headers: { "wisp-client": "short" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "INVALID_REQUEST",
        message: "wisp-client must be 22 to 128 letters, digits, _ or -",
        path: "wisp-client",
      },
    });
  });

  it("a message whose JSON body is a string or a number, not an object", async () => {
    const session = await createSession();
    for (const body of ['"hello"', "5"]) {
      const response = await call(
        `/api/sessions/${session.sessionId}/messages`,
        json("POST", body, session.token),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { code: "INVALID_REQUEST", message: "The body must be an object { text }" },
      });
    }
  });

  it("approvals without a decisions array, with none, and with more than 64", async () => {
    const session = await createSession();
    const approvals = (body: unknown) =>
      call(`/api/sessions/${session.sessionId}/approvals`, json("POST", body, session.token));
    const notAnObject = await approvals({ decisions: "all" });
    expect(notAnObject.status).toBe(400);
    expect(await notAnObject.json()).toEqual({
      error: {
        code: "INVALID_REQUEST",
        message: "The body must be an object { decisions: [...] }",
        path: "decisions",
      },
    });
    const decision = { toolCallId: "call-1", approved: true };
    for (const count of [0, 65]) {
      const response = await approvals({ decisions: Array(count).fill(decision) });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { code: "INVALID_REQUEST", message: "Send 1 to 64 decisions", path: "decisions" },
      });
    }
    // 64 pass the body check and reach the session (which has nothing waiting for approval).
    const most = await approvals({ decisions: Array(64).fill(decision) });
    const body = (await most.json()) as { error: { message: string } };
    expect(body.error.message).not.toBe("Send 1 to 64 decisions");
  });

  it("listing sessions without a bearer secret", async () => {
    const response = await call("/api/sessions");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        code: "UNAUTHORIZED",
        message: "Send the client secret you created sessions with as Authorization: Bearer <secret>",
      },
    });
  });

  it("the creation limit's 429 says the limit and when to retry", async () => {
    const ip = "198.51.100.41";
    const post = () =>
      withEnv(
        "/api/sessions",
        { method: "POST", headers: { "cf-connecting-ip": ip } },
        {
          CREATE_RATE_LIMIT: "1/60",
        },
      );
    expect((await post()).status).toBe(201);
    const refused = await post();
    expect(refused.status).toBe(429);
    const retry = refused.headers.get("retry-after");
    expect(await refused.json()).toEqual({
      error: {
        code: "RATE_LIMITED",
        message: `Too many new sessions from this client (1 per 60 s); retry in ${retry} s`,
      },
    });
  });
});

describe("the prompt length limit", () => {
  it("takes a prompt of exactly 32,000 characters", async () => {
    const session = await createSession();
    const response = await call(
      `/api/sessions/${session.sessionId}/messages`,
      json("POST", { text: "a".repeat(32_000) }, session.token),
    );
    expect(response.status).toBe(200);
    const { events } = await readEvents(response);
    expect(events.some((event) => event.event === "error")).toBe(false);
  });
});

describe("only creating counts against the creation limit", () => {
  it("listing sessions with the same client does not use up its one creation", async () => {
    const ip = "198.51.100.42";
    const limited = { CREATE_RATE_LIMIT: "1/60" };
    for (let index = 0; index < 3; index++) {
      const listed = await withEnv(
        "/api/sessions",
        { headers: { "cf-connecting-ip": ip, authorization: `Bearer ${SECRET}` } },
        limited,
      );
      expect(listed.status).toBe(200);
    }
    const created = await withEnv(
      "/api/sessions",
      { method: "POST", headers: { "cf-connecting-ip": ip } },
      limited,
    );
    expect(created.status).toBe(201);
  });
});

describe("the Bearer header", () => {
  it("of a listing: extra whitespace is fine; a prefixed scheme or a second word is refused", async () => {
    const secret = "app-edges-client-secret-0002";
    const list = (authorization: string) => call("/api/sessions", { headers: { authorization } });
    const spaced = await list(`bearer  \t ${secret}`);
    expect(spaced.status).toBe(200);
    expect(await spaced.json()).toEqual({ sessions: [] });
    // Whitespace after the secret that Headers keeps (a vertical tab, a form feed) is ignored too.
    expect((await list(`Bearer ${secret}\u000c`)).status).toBe(200);
    for (const authorization of [`xBearer ${secret}`, `Token bearer ${secret}`, `Bearer ${secret} more`]) {
      expect((await list(authorization)).status, authorization).toBe(401);
    }
  });

  it("of a session call: extra whitespace is fine; a prefixed scheme or a second word is refused", async () => {
    const session = await createSession();
    const exported = (authorization: string) =>
      call(`/api/sessions/${session.sessionId}/export`, { headers: { authorization } });
    expect((await exported(`BEARER   ${session.token}`)).status).toBe(200);
    expect((await exported(`Bearer ${session.token}\u000b`)).status).toBe(200);
    for (const authorization of [
      `xBearer ${session.token}`,
      `Token bearer ${session.token}`,
      `Bearer ${session.token} more`,
    ]) {
      const refused = await exported(authorization);
      expect(refused.status, authorization).toBe(401);
      expect(await refused.json()).toEqual({
        error: { code: "UNAUTHORIZED", message: "Send the session's token as Authorization: Bearer <token>" },
      });
    }
    expect((await call(`/api/sessions/${session.sessionId}/export`, auth(session.token))).status).toBe(200);
  });
});

describe("an import's warnings", () => {
  it("lists the first 20 and counts them all", async () => {
    const text = `${ccShort.trimEnd()}\n${Array(25).fill("[1]").join("\n")}\n`;
    const response = await call("/api/sessions/import", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: text,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const body = (await response.json()) as { warnings: { message: string }[]; warningCount: number };
    expect(body.warningCount).toBe(25);
    expect(body.warnings).toHaveLength(20);
    expect(body.warnings.every((warning) => warning.message === "not a JSON object; skipped")).toBe(true);
  });
});

const MCP_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

function mcpPost(headers: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: MCP_LIST,
  };
}

describe("the MCP route", () => {
  it("a page of the Worker's own origin, and an empty Origin, may call it", async () => {
    for (const origin of ["http://demo.test", ""]) {
      const response = await withEnv("/mcp", mcpPost({ origin }), { ALLOWED_ORIGINS: undefined });
      expect(response.status, JSON.stringify(origin)).toBe(200);
      await response.body?.cancel();
    }
  });

  it("another origin gets 403 FORBIDDEN", async () => {
    const response = await call("/mcp", mcpPost({ origin: "https://evil.example" }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { code: "FORBIDDEN", message: "This origin may not call the MCP server" },
    });
  });

  it("a content type that only contains application/json is 415", async () => {
    const response = await call("/mcp", mcpPost({ "content-type": "x-application/json" }));
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Send the body as application/json" },
    });
  });

  it("GET is 405 naming POST", async () => {
    const response = await call("/mcp");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toEqual({
      error: { code: "METHOD_NOT_ALLOWED", message: "GET is not allowed here; use POST" },
    });
  });
});

describe("an unexpected error", () => {
  it("is a 500 INTERNAL with no detail, and is logged with its message", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = {
      idFromName(): never {
        throw new Error("limiter is down");
      },
    } as unknown as Env["LIMITER"];
    const response = await withEnv(
      "/api/sessions",
      { method: "POST", headers: { "cf-connecting-ip": "198.51.100.43" } },
      { LIMITER: broken },
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: "INTERNAL", message: "Something went wrong on our side" },
    });
    expect(logged.mock.calls).toEqual([["unexpected error: limiter is down"]]);
  });
});
