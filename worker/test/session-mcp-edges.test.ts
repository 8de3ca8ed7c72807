/**
 * The edges of worker/session-mcp.ts (a session's own MCP servers, in its Durable Object), inside
 * workerd against a pretend network: a server that needs no authorization connects at once (201 with
 * its tools under the prefix, no GET stream opened); the cap on a session's servers (409
 * `MCP_SERVERS_FULL`, a server it has already still taken again); the client's registration name; what
 * a callback answers when the code is refused, the token endpoint cannot be reached, the server still
 * refuses the new token, or nothing of the session is pending; and the 502's message for a server
 * that cannot be reached.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addSessionMcpServer, MAX_SESSION_MCP_SERVERS } from "../mcp-auth-storage.ts";
import { handleMcp } from "../mcp-notes.ts";
import { BINDING_COOKIE, rememberAuthorization } from "../oauth-state.ts";
import type { SessionRunner } from "../session-runner.ts";
import { auth, call, createSession, json, refusal } from "./api.ts";
import {
  ACCESS_TOKEN,
  authorizationAnswer,
  ISSUER,
  memoryNotesStore,
  unauthorized,
} from "./pretend-oauth.ts";

type Session = { sessionId: string; token: string };

/** A server that asks for no authorization (it opens an MCP session of its own). */
const OPEN = "https://open.example.test/mcp";
/** A server that takes the access token of the authorization server below. */
const LOCKED = "https://locked.example.test/mcp";
/** A server that refuses every token, even the one just given. */
const STUBBORN = "https://stubborn.example.test/mcp";
/** The notes server's tools, by their own names. */
const NOTES_TOOLS = ["add", "list", "read", "delete"];

function stub(sessionId: string): DurableObjectStub<SessionRunner> {
  return env.RUNNER.get(env.RUNNER.idFromName(sessionId)) as DurableObjectStub<SessionRunner>;
}

function addServer(session: Session, body: unknown): Promise<Response> {
  return call(`/api/sessions/${session.sessionId}/mcp-servers`, json("POST", body, session.token));
}

async function listed(session: Session): Promise<unknown> {
  return (await call(`/api/sessions/${session.sessionId}/mcp-servers`, auth(session.token))).json();
}

/**
 * Stands in for the network the session's Durable Object reaches (it runs in this isolate and sees
 * this global): {@link OPEN} is the demo's notes server, answering with an MCP session id (405 to a GET
 * stream); {@link LOCKED} and {@link STUBBORN} answer 401 without the access token (STUBBORN with it
 * too) and name {@link ISSUER}, which registers any client and gives the access token for `the-code`.
 * With `tokenEndpointDown`, the token endpoint cannot be reached. Records each request and each
 * registration's body.
 */
function stubNetwork(options: { tokenEndpointDown?: boolean } = {}) {
  const requested: string[] = [];
  const registrations: Array<Record<string, unknown>> = [];
  const store = memoryNotesStore();
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requested.push(`${request.method} ${request.url}`);
    if (request.url === OPEN) {
      if (request.method === "GET" || request.method === "DELETE") return new Response(null, { status: 405 });
      const answer = await handleMcp(request, store);
      const headers = new Headers(answer.headers);
      headers.set("mcp-session-id", "open-session-1");
      return new Response(answer.body, { status: answer.status, headers });
    }
    if (request.url === LOCKED || request.url === STUBBORN) {
      if (request.url === LOCKED && request.headers.get("authorization") === `Bearer ${ACCESS_TOKEN}`)
        return handleMcp(request, store);
      return unauthorized(new URL(request.url).origin);
    }
    return (
      (await authorizationAnswer(request, { ...options, registrations })) ??
      new Response("not found", { status: 404 })
    );
  });
  return { requested, registrations };
}

/**
 * Starts authorizing `url` for the session (202) and comes back to the callback with `code`, as the
 * browser that started it; resolves with the callback's answer.
 */
async function authorizeAndReturn(session: Session, url: string, code: string): Promise<Response> {
  const started = await addServer(session, { url });
  expect(started.status).toBe(202);
  const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
  const state = new URL(authorizationUrl).searchParams.get("state") ?? "";
  const nonce = new RegExp(`^${BINDING_COOKIE}=([^;]+);`).exec(started.headers.get("set-cookie") ?? "")?.[1];
  return call(`/oauth/callback?code=${code}&state=${state}`, {
    headers: { cookie: `${BINDING_COOKIE}=${nonce}` },
  });
}

describe("a session's own MCP servers", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("connects a server that asks for no authorization at once: 201 with its tools under the prefix, no GET stream, listed without tools", async () => {
    const { requested } = stubNetwork();
    const session = await createSession();
    const answer = await addServer(session, { url: OPEN, prefix: "open_" });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as { server: { addedAt: number } };
    expect(body).toEqual({
      status: "connected",
      server: {
        url: OPEN,
        prefix: "open_",
        addedAt: expect.any(Number),
        tools: NOTES_TOOLS.map((name) => `open_${name}`),
      },
    });
    // Connecting only checks the server: its MCP session is never listened to.
    expect(requested.filter((line) => line.startsWith("GET "))).toEqual([]);
    expect(await listed(session)).toEqual({
      servers: [{ url: OPEN, prefix: "open_", addedAt: body.server.addedAt }],
    });
  });

  it(`refuses a server beyond ${MAX_SESSION_MCP_SERVERS} with 409 MCP_SERVERS_FULL, and still takes one it has again`, async () => {
    const { requested } = stubNetwork();
    const session = await createSession();
    const seeded = [
      OPEN,
      ...Array.from({ length: MAX_SESSION_MCP_SERVERS - 1 }, (_, n) => `https://seed-${n}.example.test/mcp`),
    ];
    await runInDurableObject(stub(session.sessionId), async (_instance, state) => {
      for (const url of seeded)
        await addSessionMcpServer(state.storage, {
          url,
          prefix: "old_",
          redirectUrl: "http://demo.test/oauth/callback",
          addedAt: 1,
        });
    });
    const sixth = "https://sixth.example.test/mcp";
    expect(await refusal(await addServer(session, { url: sixth }))).toEqual([
      409,
      {
        code: "MCP_SERVERS_FULL",
        message: `A session may add at most ${MAX_SESSION_MCP_SERVERS} MCP servers`,
        path: "url",
      },
    ]);
    expect(requested.filter((line) => line.includes(sixth))).toEqual([]);
    // A server the session has already is connected again, and replaces its entry.
    expect((await addServer(session, { url: OPEN, prefix: "new_" })).status).toBe(201);
    const { servers } = (await listed(session)) as { servers: Array<{ url: string; prefix: string }> };
    expect(servers.map((server) => [server.url, server.prefix])).toEqual([
      ...seeded.slice(1).map((url) => [url, "old_"]),
      [OPEN, "new_"],
    ]);
  });

  it("registers as “Wisp demo”; a refused code is 400 OAUTH_FAILED naming the OAuth error, a good one connects with 200", async () => {
    const { registrations } = stubNetwork();
    const session = await createSession();
    const refused = await authorizeAndReturn(session, LOCKED, "not-the-code");
    expect(registrations.map((metadata) => metadata.client_name)).toEqual(["Wisp demo"]);
    expect(await refusal(refused)).toEqual([
      400,
      { code: "OAUTH_FAILED", message: "The authorization did not complete (invalid_grant)" },
    ]);
    expect(await listed(session)).toEqual({ servers: [] });
    const connected = await authorizeAndReturn(session, LOCKED, "the-code");
    expect(connected.status).toBe(200);
    expect(await connected.json()).toEqual({
      status: "connected",
      server: { url: LOCKED, addedAt: expect.any(Number), tools: NOTES_TOOLS },
    });
  });

  it("answers 400 OAUTH_FAILED (failed) when the token endpoint cannot be reached", async () => {
    stubNetwork({ tokenEndpointDown: true });
    const session = await createSession();
    expect(await refusal(await authorizeAndReturn(session, LOCKED, "the-code"))).toEqual([
      400,
      { code: "OAUTH_FAILED", message: "The authorization did not complete (failed)" },
    ]);
  });

  it("answers a callback whose server still refuses the new token with 502 MCP_CONNECT_FAILED (authorization_required), not another authorization", async () => {
    stubNetwork();
    const session = await createSession();
    const [status, error] = await refusal(await authorizeAndReturn(session, STUBBORN, "the-code"));
    expect([status, error.code]).toEqual([502, "MCP_CONNECT_FAILED"]);
    expect(error.message).toMatch(/^Could not connect to the MCP server \(authorization_required\): \S/);
    expect(await listed(session)).toEqual({ servers: [] });
  });

  it("names no OAuth reason in the 502 of a server that cannot be reached", async () => {
    const session = await createSession();
    const [status, error] = await refusal(await addServer(session, { url: "http://127.0.0.1:9/mcp" }));
    expect([status, error.code]).toEqual([502, "MCP_CONNECT_FAILED"]);
    expect(error.message).toMatch(/^Could not connect to the MCP server: \S/);
  });

  it("says that nothing of the session waits for a callback it did not start", async () => {
    const session = await createSession();
    const state = "a-state-this-session-never-sent-0123456789";
    const nonce = await rememberAuthorization(
      env.SESSIONS,
      state,
      { sessionId: session.sessionId, url: LOCKED, redirectUrl: "http://demo.test/oauth/callback" },
      undefined,
    );
    const answer = await call(`/oauth/callback?code=x&state=${state}`, {
      headers: { cookie: `${BINDING_COOKIE}=${nonce}` },
    });
    expect(await refusal(answer)).toEqual([
      400,
      { code: "OAUTH_STATE_INVALID", message: "No authorization of this session is waiting for this answer" },
    ]);
  });
});
