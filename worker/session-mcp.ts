/**
 * A session's own MCP servers, worked on inside its Durable Object (which holds their OAuth storage,
 * worker/mcp-auth-storage.ts): connecting one (`mcp-connect`: connected at once, or the URL the person
 * must authorize at), finishing an authorization the person came back from (`mcp-finish`, called by
 * the `/oauth/callback` route), listing them (`mcp-list`), and the `connectMcp` options a run uses for
 * them. Every request made for them — the server, its metadata, the authorization server — goes
 * through the demo's URL policy (worker/mcp-url-policy.ts). Tokens never leave this object.
 *
 * @module
 */

import { isSdkError } from "wisp-agent";
import {
  type ConnectMcpOptions,
  connectMcp,
  finishMcpOAuth,
  type McpOAuthOptions,
  mcpOAuth,
} from "wisp-agent/mcp";
import { ApiError } from "./api-error.ts";
import {
  addSessionMcpServer,
  MAX_SESSION_MCP_SERVERS,
  type SessionMcpServer,
  sessionAuthStorage,
  sessionMcpServers,
} from "./mcp-auth-storage.ts";
import { policedFetch } from "./mcp-url-policy.ts";

/**
 * What the Worker asks a session's Durable Object about its MCP servers. `sessionId` lets the object
 * check that the session still exists before it writes anything (a callback can come back after the
 * session was deleted).
 */
export type SessionMcpCommand =
  | { op: "mcp-connect"; sessionId: string; url: string; prefix?: string; redirectUrl: string }
  | {
      op: "mcp-finish";
      sessionId: string;
      url: string;
      prefix?: string;
      redirectUrl: string;
      callbackUrl: string;
    }
  | { op: "mcp-list"; sessionId: string };

/** The answer to `mcp-connect` when the person must authorize first (the Worker keeps `state`). */
export interface AuthorizationNeeded {
  status: "authorization_required";
  authorizationUrl: string;
  /** The `state` of the authorization URL: the Worker indexes it to find this session on the callback. */
  state: string;
}

/** How long connecting to a session's server may take (the handshake and its list of tools). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The OAuth options for a session's servers: its own storage, the Worker's callback as redirect URI,
 * and an `authorize` that resolves undefined (the person comes back to `/oauth/callback`, another
 * request), so connecting answers `authorization_required` with the URL to send them to.
 */
function oauthOptions(storage: DurableObjectStorage, redirectUrl: string): McpOAuthOptions {
  return {
    redirectUrl,
    authorize: async () => undefined,
    storage: sessionAuthStorage(storage),
    clientMetadata: { clientName: "Wisp demo" },
    fetch: policedFetch(),
  };
}

/** The `connectMcp` options of one of a session's servers (OAuth from its storage, the URL policy). */
function sessionServerOptions(storage: DurableObjectStorage, server: SessionMcpServer): ConnectMcpOptions {
  return {
    url: server.url,
    auth: mcpOAuth(oauthOptions(storage, server.redirectUrl)),
    fetch: policedFetch(),
    listen: false,
    timeoutMs: CONNECT_TIMEOUT_MS,
    ...(server.prefix === undefined ? {} : { prefix: server.prefix }),
  };
}

/** The `connectMcp` options of every server the session added, for a run. */
export async function sessionMcpOptions(storage: DurableObjectStorage): Promise<ConnectMcpOptions[]> {
  return (await sessionMcpServers(storage)).map((server) => sessionServerOptions(storage, server));
}

/** The authorization URL of an `authorization_required` failure, or undefined for any other error. */
function authorizationUrlOf(error: unknown): string | undefined {
  if (!isSdkError(error) || error.code !== "AUTH" || !("providerCode" in error)) return undefined;
  if (error.providerCode !== "authorization_required") return undefined;
  const url = (error.details as { authorizationUrl?: unknown } | undefined)?.authorizationUrl;
  return typeof url === "string" ? url : undefined;
}

/** The OAuth reason of a failure (`access_denied`, `state_mismatch`, …), when it has one. */
function reasonOf(error: unknown): string | undefined {
  if (!isSdkError(error) || !("providerCode" in error)) return undefined;
  return typeof error.providerCode === "string" ? error.providerCode : undefined;
}

/** Connects with the session's OAuth; adds the server on success and answers with its tools. */
async function connectAndAdd(
  storage: DurableObjectStorage,
  server: SessionMcpServer,
): Promise<{ ok: true; tools: string[] } | { ok: false; error: unknown }> {
  const connected = await connectMcp(sessionServerOptions(storage, server));
  if (!connected.ok) return { ok: false, error: connected.error };
  const tools = connected.value.tools.map((tool) => tool.name);
  await connected.value.close();
  await addSessionMcpServer(storage, server);
  return { ok: true, tools };
}

/** The 502 for a server that could not be connected (the SDK's message: no secret is ever in it). */
function connectFailure(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  const reason = reasonOf(error);
  return new ApiError(
    502,
    "MCP_CONNECT_FAILED",
    `Could not connect to the MCP server${reason === undefined ? "" : ` (${reason})`}: ${message}`,
    "url",
  );
}

/** What a server is shown as: never its tokens. */
function shown(server: SessionMcpServer, tools?: string[]): Record<string, unknown> {
  return {
    url: server.url,
    ...(server.prefix === undefined ? {} : { prefix: server.prefix }),
    addedAt: server.addedAt,
    ...(tools === undefined ? {} : { tools }),
  };
}

/**
 * Carries out a {@link SessionMcpCommand} on the session's storage (the caller,
 * worker/session-runner.ts, has checked that the session exists, and clears what this wrote if the
 * session is deleted meanwhile). `mcp-connect`: 201 `{ status: "connected", server }`, or 202
 * {@link AuthorizationNeeded}; `mcp-finish`: 200 `{ status: "connected", server }`, 400
 * `OAUTH_STATE_INVALID` when nothing (or another authorization) is pending, 400 `OAUTH_FAILED` when
 * the authorization server refused; `mcp-list`: `{ servers }`. A server that cannot be reached or refuses is 502 `MCP_CONNECT_FAILED`.
 */
export async function runSessionMcpCommand(
  storage: DurableObjectStorage,
  command: SessionMcpCommand,
): Promise<Response> {
  if (command.op === "mcp-list") {
    return Response.json({ servers: (await sessionMcpServers(storage)).map((server) => shown(server)) });
  }
  const server: SessionMcpServer = {
    url: command.url,
    redirectUrl: command.redirectUrl,
    addedAt: Date.now(),
    ...(command.prefix === undefined ? {} : { prefix: command.prefix }),
  };
  const servers = await sessionMcpServers(storage);
  if (!servers.some((entry) => entry.url === server.url) && servers.length >= MAX_SESSION_MCP_SERVERS) {
    throw new ApiError(
      409,
      "MCP_SERVERS_FULL",
      `A session may add at most ${MAX_SESSION_MCP_SERVERS} MCP servers`,
      "url",
    );
  }
  if (command.op === "mcp-finish") {
    const options = oauthOptions(storage, command.redirectUrl);
    const finished = await finishMcpOAuth({ ...options, url: command.url, callbackUrl: command.callbackUrl });
    if (!finished.ok) {
      const reason = reasonOf(finished.error) ?? "failed";
      if (reason === "state_mismatch") {
        throw new ApiError(
          400,
          "OAUTH_STATE_INVALID",
          "No authorization of this session is waiting for this answer",
        );
      }
      throw new ApiError(400, "OAUTH_FAILED", `The authorization did not complete (${reason})`);
    }
  }
  const outcome = await connectAndAdd(storage, server);
  if (outcome.ok) {
    return Response.json(
      { status: "connected", server: shown(server, outcome.tools) },
      { status: command.op === "mcp-connect" ? 201 : 200 },
    );
  }
  const authorizationUrl = command.op === "mcp-connect" ? authorizationUrlOf(outcome.error) : undefined;
  if (authorizationUrl === undefined) throw connectFailure(outcome.error);
  const state = new URL(authorizationUrl).searchParams.get("state") ?? "";
  const needed: AuthorizationNeeded = { status: "authorization_required", authorizationUrl, state };
  return Response.json(needed, { status: 202 });
}
