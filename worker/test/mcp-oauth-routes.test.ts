/**
 * A session's own MCP servers and the OAuth callback, inside workerd (real KV and Durable Objects):
 * every refusal of `POST /api/sessions/:id/mcp-servers` (token, body, URL policy, prefix) and of
 * `GET /oauth/callback` (no state, unknown state, another browser, a repeated callback, nothing
 * pending in the session) in the API's error shape or as a redirect to the page, the per-session
 * OAuth storage in the Durable Object (kept out of the export, gone with the session), and the URL
 * policy itself. The whole flow against a real authorization server is worker/e2e/mcp-oauth.test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addSessionMcpServer, sessionAuthStorage, sessionMcpServers } from "../mcp-auth-storage.ts";
import { checkMcpUrl, isRefusedHost, mcpUrlProblem, policedFetch } from "../mcp-url-policy.ts";
import { BINDING_COOKIE, rememberAuthorization } from "../oauth-state.ts";
import type { SessionRunner } from "../session-runner.ts";
import { auth, call, createSession, json } from "./api.ts";

type ErrorBody = { error: { code: string; message: string; path?: string } };

async function errorOf(response: Response): Promise<[number, string, string | undefined]> {
  const body = (await response.json()) as ErrorBody;
  return [response.status, body.error.code, body.error.path];
}

function addServer(session: { sessionId: string; token: string }, body: unknown): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/mcp-servers`, json("POST", body, session.token));
}

function stub(sessionId: string): DurableObjectStub<SessionRunner> {
  return env.RUNNER.get(env.RUNNER.idFromName(sessionId)) as DurableObjectStub<SessionRunner>;
}

describe("POST /api/sessions/:id/mcp-servers", () => {
  it("needs the session's token, and answers an unknown session or a wrong token with the same 404", async () => {
    const session = await createSession();
    const none = await call(`/api/sessions/${session.sessionId}/mcp-servers`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/mcp" }),
    });
    expect((await errorOf(none)).slice(0, 2)).toEqual([401, "UNAUTHORIZED"]);
    const wrong = await addServer({ ...session, token: "not-the-token" }, { url: "https://example.com/mcp" });
    expect((await errorOf(wrong)).slice(0, 2)).toEqual([404, "NOT_FOUND"]);
    const unknown = await addServer(
      { sessionId: crypto.randomUUID(), token: session.token },
      { url: "https://example.com/mcp" },
    );
    expect((await errorOf(unknown)).slice(0, 2)).toEqual([404, "NOT_FOUND"]);
  });

  it("refuses bad bodies, URLs and prefixes before connecting anywhere", async () => {
    const session = await createSession();
    const cases: Array<[unknown, string | undefined]> = [
      [[], undefined],
      [{}, "url"],
      [{ url: 42 }, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://example.com/mcp" }, "url"],
      [{ url: "javascript:alert(1)" }, "url"],
      [{ url: "https://user:pw@example.com/mcp" }, "url"],
      [{ url: "http://10.0.0.7/mcp" }, "url"],
      [{ url: "http://192.168.1.1/mcp" }, "url"],
      [{ url: "http://169.254.169.254/latest" }, "url"],
      [{ url: "http://[fd00::1]/mcp" }, "url"],
      [{ url: "http://[::ffff:10.0.0.1]/mcp" }, "url"],
      [{ url: `https://example.com/${"x".repeat(2_000)}` }, "url"],
      [{ url: "https://example.com/mcp", prefix: "bad prefix" }, "prefix"],
      [{ url: "https://example.com/mcp", prefix: 7 }, "prefix"],
    ];
    for (const [body, path] of cases) {
      const answer = await addServer(session, body);
      expect(await errorOf(answer), JSON.stringify(body).slice(0, 80)).toEqual([
        400,
        "INVALID_REQUEST",
        path,
      ]);
    }
    const text = await call(`/api/sessions/${session.sessionId}/mcp-servers`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "text/plain" },
      body: "https://example.com/mcp",
    });
    expect((await errorOf(text)).slice(0, 2)).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    const malformed = await addServer(session, "{");
    expect((await errorOf(malformed)).slice(0, 2)).toEqual([400, "MALFORMED_JSON"]);
    const listed = await call(`/api/sessions/${session.sessionId}/mcp-servers`, auth(session.token));
    expect(await listed.json()).toEqual({ servers: [] });
  });

  it("answers 502 MCP_CONNECT_FAILED, naming no secret, when the server cannot be reached", async () => {
    const session = await createSession();
    const answer = await addServer(session, { url: "http://127.0.0.1:9/mcp" });
    const [status, code, path] = await errorOf(answer);
    expect([status, code, path]).toEqual([502, "MCP_CONNECT_FAILED", "url"]);
  });

  it("takes GET and POST only", async () => {
    const session = await createSession();
    const put = await call(`/api/sessions/${session.sessionId}/mcp-servers`, auth(session.token, "PUT"));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});

describe("GET /oauth/callback", () => {
  it("refuses a missing or malformed state, and an unknown one, as JSON or as a redirect to the page", async () => {
    expect(await errorOf(await call("/oauth/callback?code=x"))).toEqual([
      400,
      "OAUTH_STATE_INVALID",
      "state",
    ]);
    expect(await errorOf(await call("/oauth/callback?code=x&state=a%20b"))).toEqual([
      400,
      "OAUTH_STATE_INVALID",
      "state",
    ]);
    const unknown = await call("/oauth/callback?code=x&state=abcdefghijklmnopqrstuvwxyz012345");
    expect(await errorOf(unknown)).toEqual([400, "OAUTH_STATE_INVALID", "state"]);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    const browser = await call("/oauth/callback?code=x&state=abcdefghijklmnopqrstuvwxyz012345", {
      headers: { "sec-fetch-mode": "navigate", accept: "text/html" },
      redirect: "manual",
    });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toBe("http://demo.test/?mcp=failed&code=OAUTH_STATE_INVALID");
    expect((await call("/oauth/callback", { method: "POST" })).status).toBe(405);
  });

  it("refuses a state presented by another browser (no cookie, or another nonce), and keeps it for the right one", async () => {
    const session = await createSession();
    const state = "state-for-another-browser-0123456789";
    const nonce = await rememberAuthorization(
      env.SESSIONS,
      state,
      {
        sessionId: session.sessionId,
        url: "https://example.com/mcp",
        redirectUrl: "http://demo.test/oauth/callback",
      },
      undefined,
    );
    const none = await call(`/oauth/callback?code=x&state=${state}`);
    expect(((await none.json()) as ErrorBody).error).toEqual({
      code: "OAUTH_BROWSER_MISMATCH",
      message: "This authorization was started in another browser",
    });
    expect(none.status).toBe(403);
    const other = await call(`/oauth/callback?code=x&state=${state}`, {
      headers: { cookie: `${BINDING_COOKIE}=${"o".repeat(43)}` },
    });
    expect((await errorOf(other)).slice(0, 2)).toEqual([403, "OAUTH_BROWSER_MISMATCH"]);
    // The right browser: the index is found, the session has nothing pending, so the client refuses it.
    const right = await call(`/oauth/callback?code=x&state=${state}`, {
      headers: { cookie: `other=1; ${BINDING_COOKIE}=${nonce}` },
    });
    expect((await errorOf(right)).slice(0, 2)).toEqual([400, "OAUTH_STATE_INVALID"]);
    // Used once: the same callback again is unknown.
    const again = await call(`/oauth/callback?code=x&state=${state}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce}` },
    });
    expect(await errorOf(again)).toEqual([400, "OAUTH_STATE_INVALID", "state"]);
  });

  it("finishes nothing for a state whose pending authorization is another's", async () => {
    const session = await createSession();
    const url = "https://example.com/mcp";
    await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
      await sessionAuthStorage(state.storage).set(`wisp-mcp-oauth:pending:${url}`, {
        state: "the-real-state-0123456789abcdef",
        verifier: "v",
        redirectUrl: "http://demo.test/oauth/callback",
        authorizationEndpoint: "https://as.example.com/authorize",
        grant: { tokenEndpoint: "https://as.example.com/token" },
        createdAt: Date.now(),
      });
    });
    const forged = "a-forged-state-0123456789abcdef";
    const nonce = await rememberAuthorization(
      env.SESSIONS,
      forged,
      { sessionId: session.sessionId, url, redirectUrl: "http://demo.test/oauth/callback" },
      undefined,
    );
    const answer = await call(`/oauth/callback?code=x&state=${forged}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce}`, "sec-fetch-mode": "navigate" },
      redirect: "manual",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("http://demo.test/?mcp=failed&code=OAUTH_STATE_INVALID");
    const servers = await runInDurableObject(stub(session.sessionId), (_instance, state) =>
      sessionMcpServers(state.storage),
    );
    expect(servers).toEqual([]);
  });
});

describe("the session's OAuth storage", () => {
  it("lives in the session's Durable Object, stays out of the export, and goes with the session", async () => {
    const session = await createSession();
    await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
      const storage = sessionAuthStorage(state.storage);
      expect(await storage.get("k")).toBeUndefined();
      await storage.set("k", { accessToken: "secret-access-token", n: [1, 2] });
      expect(await storage.get("k")).toEqual({ accessToken: "secret-access-token", n: [1, 2] });
      await storage.delete("k");
      await storage.delete("k");
      expect(await storage.get("k")).toBeUndefined();
      await storage.set("tokens", { accessToken: "secret-access-token" });
      await addSessionMcpServer(state.storage, {
        url: "https://example.com/mcp",
        prefix: "ex_",
        redirectUrl: "http://demo.test/oauth/callback",
        addedAt: 1,
      });
    });
    const listed = await call(`/api/sessions/${session.sessionId}/mcp-servers`, auth(session.token));
    expect(await listed.json()).toEqual({
      servers: [{ url: "https://example.com/mcp", prefix: "ex_", addedAt: 1 }],
    });
    const exported = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token));
    expect(await exported.text()).not.toContain("secret-access-token");
    expect((await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"))).status).toBe(
      204,
    );
    const left = await runInDurableObject(stub(session.sessionId), async (_instance, state) => [
      await sessionAuthStorage(state.storage).get("tokens"),
      await sessionMcpServers(state.storage),
    ]);
    expect(left).toEqual([undefined, []]);
  });
});

describe("the URL policy", () => {
  it("allows public and loopback hosts, refuses private, link-local, shared and unspecified ones", () => {
    for (const host of [
      "example.com",
      "8.8.8.8",
      "127.0.0.1",
      "[::1]",
      "localhost",
      "[2001:db8::1]",
      "172.32.0.1",
    ]) {
      expect(isRefusedHost(host), host).toBe(false);
    }
    for (const host of [
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "[::]",
      "[fc00::1]",
      "[fe80::1]",
      "[::ffff:192.168.0.1]",
      "[::ffff:a00:1]",
    ]) {
      expect(isRefusedHost(host), host).toBe(true);
    }
    expect(checkMcpUrl("https://example.com/mcp#frag")).toBe("https://example.com/mcp");
    expect(mcpUrlProblem("https://example.com/mcp")).toBeUndefined();
  });

  it("keeps every request of a connection to it (the authorization server's too)", async () => {
    const seen: string[] = [];
    const guarded = policedFetch(async (input) => {
      seen.push(String(input));
      return new Response("ok");
    });
    expect(await (await guarded("https://as.example.com/token")).text()).toBe("ok");
    await expect(guarded("http://10.0.0.1/token")).rejects.toThrow("private network");
    await expect(guarded("file:///etc/passwd")).rejects.toThrow("http or https");
    expect(seen).toEqual(["https://as.example.com/token"]);
  });
});
