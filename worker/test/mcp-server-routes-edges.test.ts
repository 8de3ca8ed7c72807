/**
 * The edges of worker/mcp-server-routes.ts, inside workerd: what a refused add-server body, method or
 * callback says (code, message, path, Allow); an empty prefix taken as none; the per-client limit on
 * connection attempts (429 RATE_LIMITED with Retry-After, one budget per client); and a whole OAuth
 * authorization against a pretend network (an MCP server that wants a token, its authorization
 * server): the 202 `authorization_required` with its browser-binding cookie (Secure over https, the
 * browser's nonce reused), then the callback that connects the server under its prefix.
 */
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { handleMcp } from "../mcp-notes.ts";
import { BINDING_COOKIE } from "../oauth-state.ts";
import { auth, call, createSession, json, refusal } from "./api.ts";
import {
  ACCESS_TOKEN,
  authorizationAnswer,
  ISSUER,
  memoryNotesStore,
  unauthorized,
} from "./pretend-oauth.ts";

function addServer(session: { sessionId: string; token: string }, body: unknown): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/mcp-servers`, json("POST", body, session.token));
}

describe("refusals of the MCP server routes", () => {
  it("refuses a body that is not an object (null, a string, a number) as such, naming no field", async () => {
    const session = await createSession();
    for (const body of ["null", JSON.stringify("https://example.com/mcp"), "42"]) {
      expect(await refusal(await addServer(session, body)), body).toEqual([
        400,
        { code: "INVALID_REQUEST", message: "The body must be an object { url, prefix? }" },
      ]);
    }
  });

  it("says what a prefix may look like", async () => {
    const session = await createSession();
    const answer = await addServer(session, { url: "https://example.com/mcp", prefix: "bad prefix" });
    expect(await refusal(answer)).toEqual([
      400,
      {
        code: "INVALID_REQUEST",
        message: "prefix must be a letter then up to 31 letters, digits or _",
        path: "prefix",
      },
    ]);
  });

  it("takes an empty prefix as none (it goes on to connect)", async () => {
    const session = await createSession();
    const answer = await addServer(session, { url: "http://127.0.0.1:9/mcp", prefix: "" });
    const [status, error] = await refusal(answer);
    expect([status, error.code, error.path]).toEqual([502, "MCP_CONNECT_FAILED", "url"]);
  });

  it("names the method refused, and the ones allowed, in a 405", async () => {
    const session = await createSession();
    const put = await call(`/api/sessions/${session.sessionId}/mcp-servers`, auth(session.token, "PUT"));
    expect(await refusal(put)).toEqual([
      405,
      { code: "METHOD_NOT_ALLOWED", message: "PUT is not allowed here; use GET or POST" },
    ]);
    const post = await call("/oauth/callback?code=x&state=abcdefghijklmnopqrstuvwxyz012345", {
      method: "POST",
    });
    expect(post.headers.get("allow")).toBe("GET");
    expect(await refusal(post)).toEqual([
      405,
      { code: "METHOD_NOT_ALLOWED", message: "POST is not allowed here; use GET" },
    ]);
  });

  it("says why a callback's state is refused when it is unknown (another browser's: mcp-oauth-routes)", async () => {
    const unknown = await call("/oauth/callback?code=x&state=abcdefghijklmnopqrstuvwxyz987654");
    expect(await refusal(unknown)).toEqual([
      400,
      {
        code: "OAUTH_STATE_INVALID",
        message: "No authorization is waiting for this state (unknown, expired, or already used)",
        path: "state",
      },
    ]);
  });
});

describe("the limit on MCP connection attempts", () => {
  const app = createApp();

  /** An add-server request from `address`, with CREATE_RATE_LIMIT as given. */
  function attempt(session: { sessionId: string; token: string }, address: string): Promise<Response> {
    const request = new Request(`http://demo.test/api/sessions/${session.sessionId}/mcp-servers`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${session.token}`,
        "content-type": "application/json",
        "cf-connecting-ip": address,
      },
      body: JSON.stringify({ url: "http://127.0.0.1:9/mcp" }),
    });
    return Promise.resolve(app.fetch(request, { ...env, CREATE_RATE_LIMIT: "2/60" }));
  }

  it("lets CREATE_RATE_LIMIT's count through per client, then answers 429 RATE_LIMITED with Retry-After", async () => {
    const session = await createSession();
    // Clients of this run only (IPv6 /64s picked at random): the limiter's buckets outlive a test.
    const client = () => {
      const [high = 0, low = 0] = crypto.getRandomValues(new Uint16Array(2));
      return `2001:db8:${high.toString(16)}:${low.toString(16)}::1`;
    };
    const first = client();
    const second = client();
    for (let count = 0; count < 2; count++) {
      expect((await refusal(await attempt(session, first)))[1].code).toBe("MCP_CONNECT_FAILED");
    }
    const refused = await attempt(session, first);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(await refusal(refused)).toEqual([
      429,
      {
        code: "RATE_LIMITED",
        message: `Too many MCP connection attempts from this client (2 per 60 s); retry in ${retryAfter} s`,
      },
    ]);
    // Another client has a budget of its own.
    expect((await refusal(await attempt(session, second)))[1].code).toBe("MCP_CONNECT_FAILED");
  });
});

describe("an OAuth-protected MCP server added to a session", () => {
  const mcpUrl = "https://mcp.example.test/mcp";

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /**
   * Stands in for the network the session's Durable Object reaches (it runs in this isolate, so it
   * sees this global): the MCP server (the demo's notes server, on a store of its own) answers 401
   * without the access token; its protected resource metadata names the authorization server, which
   * registers any client and gives the access token for the code `the-code` (worker/test/pretend-oauth.ts). Every answer is made
   * where it is asked for; only strings cross between the test and the object.
   */
  function stubNetwork(): string[] {
    const requested: string[] = [];
    const store = memoryNotesStore();
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const { origin, pathname } = new URL(request.url);
      requested.push(`${request.method} ${request.url}`);
      if (origin === "https://mcp.example.test" && pathname === "/mcp") {
        if (request.headers.get("authorization") !== `Bearer ${ACCESS_TOKEN}`) return unauthorized(origin);
        return handleMcp(request, store);
      }
      return (await authorizationAnswer(request)) ?? new Response("not found", { status: 404 });
    });
    return requested;
  }

  /** The binding cookie's nonce from a Set-Cookie value. */
  function nonceOf(setCookie: string | null): string {
    const nonce = new RegExp(`^${BINDING_COOKIE}=([^;]+);`).exec(setCookie ?? "")?.[1];
    if (nonce === undefined) throw new Error(`no binding cookie in ${setCookie}`);
    return nonce;
  }

  it("answers 202 with the URL to authorize at and a binding cookie, then the callback connects it under its prefix", async () => {
    const requested = stubNetwork();
    const session = await createSession();
    const started = await addServer(session, { url: mcpUrl, prefix: "vault_" });
    expect(started.status).toBe(202);
    const body = (await started.json()) as { status: string; authorizationUrl: string };
    // The state stays with the Worker's index: the page gets the URL only.
    expect(body).toEqual({ status: "authorization_required", authorizationUrl: expect.any(String) });
    const authorizationUrl = new URL(body.authorizationUrl);
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${ISSUER}/authorize`);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe("http://demo.test/oauth/callback");
    const state = authorizationUrl.searchParams.get("state") ?? "";
    const setCookie = started.headers.get("set-cookie");
    const nonce = nonceOf(setCookie);
    // Served over http here: no Secure attribute (the browser would drop the cookie).
    expect(setCookie).toBe(
      `${BINDING_COOKIE}=${nonce}; Path=/oauth/callback; Max-Age=600; HttpOnly; SameSite=Lax`,
    );

    const finished = await call(`/oauth/callback?code=the-code&state=${state}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce}` },
    });
    expect(finished.status).toBe(200);
    expect(await finished.json()).toMatchObject({
      status: "connected",
      server: { url: mcpUrl, prefix: "vault_" },
    });
    expect(requested).toContain(`POST ${ISSUER}/token`);
    const listed = await call(`/api/sessions/${session.sessionId}/mcp-servers`, auth(session.token));
    expect(await listed.json()).toEqual({
      servers: [{ url: mcpUrl, prefix: "vault_", addedAt: expect.any(Number) }],
    });
  });

  it("marks the cookie Secure over https, and keeps the nonce the browser already has", async () => {
    stubNetwork();
    const session = await createSession();
    const https = await exports.default.fetch(
      new Request(
        `https://demo.test/api/sessions/${session.sessionId}/mcp-servers`,
        json("POST", { url: mcpUrl }, session.token),
      ),
    );
    expect(https.status).toBe(202);
    const setCookie = https.headers.get("set-cookie");
    const nonce = nonceOf(setCookie);
    expect(setCookie).toBe(
      `${BINDING_COOKIE}=${nonce}; Path=/oauth/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
    // The same browser again: the cookie it presents is reused, not replaced.
    const again = await call(`/api/sessions/${session.sessionId}/mcp-servers`, {
      ...json("POST", { url: mcpUrl }, session.token),
      headers: {
        authorization: `Bearer ${session.token}`,
        "content-type": "application/json",
        cookie: `other=1; ${BINDING_COOKIE}=${nonce}`,
      },
    });
    expect(again.status).toBe(202);
    expect(nonceOf(again.headers.get("set-cookie"))).toBe(nonce);
  });
});
