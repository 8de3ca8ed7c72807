/**
 * What keeps a session's MCP servers from being turned against the Worker: the URL policy's fetch
 * follows no redirect (a public host's 302 or a token endpoint's 307 would take the request, and a
 * POST's secrets, to an address the policy never saw); every spelling of a private, multicast,
 * broadcast or reserved address is refused, loopback still allowed; and an OAuth callback for a session
 * that was deleted — before it came back, or while its token exchange was on the network — writes
 * nothing into the session's Durable Object (404 `NOT_FOUND`, `/?mcp=failed&code=NOT_FOUND`).
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionAuthStorage } from "../mcp-auth-storage.ts";
import { isRefusedHost, mcpUrlProblem, policedFetch } from "../mcp-url-policy.ts";
import { BINDING_COOKIE, rememberAuthorization } from "../oauth-state.ts";
import type { SessionRunner } from "../session-runner.ts";
import { auth, call, createSession, json } from "./api.ts";

type ErrorBody = { error: { code: string; message: string; path?: string } };

function stub(sessionId: string): DurableObjectStub<SessionRunner> {
  return env.RUNNER.get(env.RUNNER.idFromName(sessionId)) as DurableObjectStub<SessionRunner>;
}

/**
 * A pretend network that answers from `routes` and follows redirects as `fetch` does (307/308 keep
 * the method and body, 301/302/303 turn a POST into a GET) unless the request says `redirect: "manual"`.
 * It records every request that reached a host.
 */
function network(routes: Record<string, () => Response>) {
  const reached: Array<{ method: string; url: string; body: string }> = [];
  const inits: Array<RequestInit | undefined> = [];
  const fetchLike: typeof fetch = async (input, init) => {
    inits.push(init);
    let request = new Request(input, init);
    for (let hop = 0; hop < 20; hop++) {
      const body = request.method === "GET" ? "" : await request.clone().text();
      reached.push({ method: request.method, url: request.url, body });
      const response = routes[request.url]?.() ?? new Response("not found", { status: 404 });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) return response;
      if (request.redirect === "manual") return response;
      const keep = response.status === 307 || response.status === 308;
      request = new Request(new URL(location, request.url), {
        method: keep ? request.method : "GET",
        headers: request.headers,
        ...(keep && request.method !== "GET" ? { body } : {}),
      });
    }
    throw new TypeError("too many redirects");
  };
  return { fetchLike, reached, inits };
}

describe("policedFetch and redirects", () => {
  const routes = {
    "https://public.example/.well-known/oauth-protected-resource": () =>
      new Response(null, { status: 302, headers: { location: "http://10.0.0.1/latest/meta-data" } }),
    "https://as.example/token": () =>
      new Response(null, { status: 307, headers: { location: "http://192.168.1.5/steal" } }),
    "https://public.example/elsewhere": () =>
      new Response(null, { status: 301, headers: { location: "https://other.example/ok" } }),
    "http://10.0.0.1/latest/meta-data": () => new Response("instance secrets"),
    "http://192.168.1.5/steal": () => new Response("stolen"),
    "https://other.example/ok": () => new Response("ok"),
  };

  it("never follows a public host's redirect to a private address (the 3xx is the answer)", async () => {
    const net = network(routes);
    const guarded = policedFetch(net.fetchLike);
    const answer = await guarded("https://public.example/.well-known/oauth-protected-resource");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("http://10.0.0.1/latest/meta-data");
    expect(net.reached.map((request) => request.url)).toEqual([
      "https://public.example/.well-known/oauth-protected-resource",
    ]);
  });

  it("never re-sends a token request's POST where a 307 points, whatever the caller asked for", async () => {
    const net = network(routes);
    const guarded = policedFetch(net.fetchLike);
    const answer = await guarded("https://as.example/token", {
      method: "POST",
      body: "grant_type=authorization_code&code=the-code&code_verifier=the-verifier",
      redirect: "follow",
    });
    expect(answer.status).toBe(307);
    expect(net.reached.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST https://as.example/token",
    ]);
    // A Request's own `redirect` ("follow" unless said otherwise) is overridden too.
    const fromRequest = await guarded(
      new Request("https://as.example/token", { method: "POST", body: "client_secret=s" }),
    );
    expect(fromRequest.status).toBe(307);
    expect(net.reached.some((request) => request.url.startsWith("http://192.168."))).toBe(false);
    expect(net.inits.map((init) => init?.redirect)).toEqual(["manual", "manual"]);
  });

  it("does not follow a redirect between public hosts either (nothing is followed)", async () => {
    const net = network(routes);
    const answer = await policedFetch(net.fetchLike)(new URL("https://public.example/elsewhere"));
    expect(answer.status).toBe(301);
    expect(net.reached).toHaveLength(1);
  });
});

describe("the URL policy's addresses", () => {
  it("refuses every other form of a private, multicast, broadcast or reserved address", () => {
    for (const host of [
      "[::a00:1]", // ::10.0.0.1, IPv4-compatible
      "[::10.0.0.1]",
      "[::808:808]", // ::8.8.8.8: IPv4-compatible addresses are deprecated, all refused
      "[64:ff9b::a00:1]", // NAT64 of 10.0.0.1
      "[64:ff9b::c0a8:1]", // NAT64 of 192.168.0.1
      "[64:ff9b::7f00:1]", // NAT64 of 127.0.0.1: the translator's loopback
      "[64:ff9b:1::1]", // local-use NAT64
      "[2002:a00:1::1]", // 6to4 of 10.0.0.1
      "[2002:a9fe:a9fe::]", // 6to4 of 169.254.169.254
      "[2002:7f00:1::]", // 6to4 of 127.0.0.1
      "[2001:0:4136:e378:8000:63bf:f5ff:fffe]", // Teredo, client 10.0.0.1
      "[fec0::1]", // site-local
      "[feff::1]",
      "[ff02::1]", // multicast
      "[::ffff:0:a00:1]", // IPv4-translated 10.0.0.1
      "[::ffff:a9fe:a9fe]", // mapped 169.254.169.254
      "[::ffff:224.0.0.1]",
      "[0:0:0:0:0:ffff:10.0.0.1]",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "0.1.2.3",
      "198.18.0.1",
      "2886729729", // 172.16.0.1, decimal
      "0xa.1", // 10.0.0.1, hex
      "012.0.0.1", // 10.0.0.1, octal
      "0xc0.0xa8.1.1",
      "10.0.0.1.", // trailing dot
      "0",
    ]) {
      expect(isRefusedHost(host), host).toBe(true);
    }
  });

  it("reads other spellings of an address as the URL parser does, and keeps loopback and public addresses allowed", () => {
    expect(new URL("http://2130706433/").hostname).toBe("127.0.0.1");
    expect(new URL("http://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(new URL("http://0xa000001/").hostname).toBe("10.0.0.1");
    for (const url of [
      "http://2130706433/mcp",
      "http://0x7f.1/mcp",
      "http://0177.0.0.1:8787/mcp",
      "http://[::ffff:127.0.0.1]/mcp",
      "http://[::1]:8787/mcp",
      "http://localhost:8787/mcp",
      "https://8.8.8.8/mcp",
      "https://[2001:db8::1]/mcp",
      "https://[2002:808:808::1]/mcp", // 6to4 of a public address
      "https://[64:ff9b::808:808]/mcp", // NAT64 of a public address
      "https://[2606:4700::1111]/mcp",
      "https://223.255.255.255/mcp",
      "https://example.com./mcp",
    ]) {
      expect(mcpUrlProblem(url), url).toBeUndefined();
    }
    for (const url of [
      "http://0xa000001/mcp",
      "http://167772161/mcp",
      "http://0x0a.0.0.1/mcp",
      "http://[::a00:1]/mcp",
      "http://[64:ff9b::10.0.0.1]/mcp",
      "http://[2002:c0a8:101::]/mcp",
      "http://[fec0::1]/mcp",
      "http://224.0.0.251/mcp",
      "http://255.255.255.255/mcp",
      "http://0.0.0.0:8787/mcp",
      "http://0/mcp",
    ]) {
      expect(mcpUrlProblem(url), url).toBe("url points to a private network address");
    }
  });

  it("refuses them at the route, before connecting anywhere", async () => {
    const session = await createSession();
    for (const url of ["http://0xa000001/mcp", "http://[::a00:1]/mcp", "http://[2002:a00:1::]/mcp"]) {
      const answer = await call(
        `/api/sessions/${session.sessionId}/mcp-servers`,
        json("POST", { url }, session.token),
      );
      const body = (await answer.json()) as ErrorBody;
      expect([answer.status, body.error.code, body.error.path], url).toEqual([400, "INVALID_REQUEST", "url"]);
    }
  });
});

describe("an OAuth callback for a deleted session", () => {
  const url = "https://mcp.example.test/mcp";
  const tokenEndpoint = "https://as.example.test/token";
  const redirectUrl = "http://demo.test/oauth/callback";

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** Puts a pending authorization for `url` in the session's Durable Object, as `mcp-connect` would. */
  async function pendingIn(sessionId: string, state: string): Promise<void> {
    await runInDurableObject(stub(sessionId), async (_instance, storage) => {
      await sessionAuthStorage(storage.storage).set(`wisp-mcp-oauth:pending:${url}`, {
        state,
        verifier: "the-verifier",
        redirectUrl,
        authorizationEndpoint: "https://as.example.test/authorize",
        grant: {
          tokenEndpoint,
          resource: url,
          issuer: "https://as.example.test",
          client: { clientId: "the-client" },
          authMethod: "none",
        },
        createdAt: Date.now(),
      });
    });
  }

  /** What the session's Durable Object still stores. */
  function storedKeys(sessionId: string): Promise<string[]> {
    return runInDurableObject(stub(sessionId), async (_instance, storage) => [
      ...(await storage.storage.list()).keys(),
    ]);
  }

  /** Waits, polling, until `done` says so (no promise is shared between the test and the object). */
  async function until(done: () => boolean): Promise<void> {
    for (let waited = 0; !done(); waited += 5) {
      if (waited > 5_000) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * Stands in for the network the Durable Object reaches (it runs in this isolate, so it sees this
   * global): the token endpoint answers tokens once `release()` was called, the MCP server refuses.
   * The answer is made where it is asked for, and only plain flags cross between the test and the
   * object (workerd ties I/O objects and promises to the request that made them).
   */
  function stubNetwork() {
    const gate = { open: false };
    const requested: string[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const target = input instanceof Request ? input.url : String(input);
      requested.push(`${init?.method ?? "GET"} ${target}`);
      if (target !== tokenEndpoint) return new Response("no", { status: 500 });
      const tokens = Response.json({
        access_token: "secret-access-token",
        token_type: "Bearer",
        expires_in: 3600,
      });
      await until(() => gate.open);
      return tokens;
    });
    return {
      requested,
      release: () => {
        gate.open = true;
      },
    };
  }

  it("writes no tokens into the deleted session's object (404 NOT_FOUND, and failed for a browser)", async () => {
    const net = stubNetwork();
    net.release();
    const session = await createSession();
    const state = "state-of-a-deleted-session-0123456789";
    const nonce = await rememberAuthorization(
      env.SESSIONS,
      state,
      { sessionId: session.sessionId, url, redirectUrl },
      undefined,
    );
    expect((await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"))).status).toBe(
      204,
    );
    // The object still holds a pending authorization (an `mcp-connect` that raced the delete wrote it
    // after the delete cleared the storage), and has been evicted since: only storage and KV can tell.
    await pendingIn(session.sessionId, state);
    await evictDurableObject(stub(session.sessionId));
    const answer = await call(`/oauth/callback?code=the-code&state=${state}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce}` },
    });
    const body = (await answer.json()) as ErrorBody;
    expect([answer.status, body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect(net.requested).toEqual([]);
    expect(
      (await storedKeys(session.sessionId)).filter((key) => key.includes("tokens") || key === "mcp-servers"),
    ).toEqual([]);

    // A browser is sent back to the page with the failure.
    const state2 = "state-of-a-deleted-session-abcdefghij";
    const nonce2 = await rememberAuthorization(
      env.SESSIONS,
      state2,
      { sessionId: session.sessionId, url, redirectUrl },
      undefined,
    );
    await pendingIn(session.sessionId, state2);
    const browser = await call(`/oauth/callback?code=the-code&state=${state2}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce2}`, "sec-fetch-mode": "navigate", accept: "text/html" },
      redirect: "manual",
    });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toBe("http://demo.test/?mcp=failed&code=NOT_FOUND");
    expect(net.requested).toEqual([]);
  });

  it("clears what a callback wrote when the session is deleted during its token exchange", async () => {
    const net = stubNetwork();
    const session = await createSession();
    const state = "state-of-a-session-deleted-meanwhile-01";
    await pendingIn(session.sessionId, state);
    const nonce = await rememberAuthorization(
      env.SESSIONS,
      state,
      { sessionId: session.sessionId, url, redirectUrl },
      undefined,
    );
    const callback = call(`/oauth/callback?code=the-code&state=${state}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce}` },
    });
    await until(() => net.requested.length > 0);
    const deleted = await call(`/api/sessions/${session.sessionId}`, auth(session.token, "DELETE"));
    expect(deleted.status).toBe(204);
    net.release();
    const answer = await callback;
    const body = (await answer.json()) as ErrorBody;
    expect([answer.status, body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect(net.requested[0]).toBe(`POST ${tokenEndpoint}`);
    // No tokens, no server list, nothing at all: the delete's clean storage stays clean.
    expect(await storedKeys(session.sessionId)).toEqual([]);
  });
});
