/**
 * Where a session keeps what OAuth gives it: its Durable Object's own storage. `mcpOAuth` writes the
 * tokens, the client registration and a pending authorization's PKCE verifier and `state` there
 * (under `mcp-auth:`), and the session's list of connected servers sits beside them
 * (`mcp-servers`). None of it is part of the `SessionState`, so it is never exported, never sent to
 * the page and never copied by an import; deleting the session deletes it with the rest of the
 * object's storage.
 *
 * @module
 */

import type { JsonValue } from "wisp-agent";
import type { McpAuthStorage } from "wisp-agent/mcp";

/** The prefix of the OAuth keys in a session's Durable Object storage. */
const AUTH_PREFIX = "mcp-auth:";

/** The key of the session's list of connected servers. */
const SERVERS_KEY = "mcp-servers";

/** Most MCP servers one session may add. */
export const MAX_SESSION_MCP_SERVERS = 5;

/** An MCP server a session connected to (with OAuth or without). */
export interface SessionMcpServer {
  url: string;
  /** Put before its tools' names, when given. */
  prefix?: string;
  /** The redirect URI its authorization used (needed again to renew tokens). */
  redirectUrl: string;
  /** When it was added, epoch ms. */
  addedAt: number;
}

/** The storage `mcpOAuth` gets for one session: its Durable Object's storage, under `mcp-auth:`. */
export function sessionAuthStorage(storage: DurableObjectStorage): McpAuthStorage {
  return {
    get: async (key) => (await storage.get<JsonValue>(`${AUTH_PREFIX}${key}`)) ?? undefined,
    set: async (key, value) => storage.put(`${AUTH_PREFIX}${key}`, value),
    delete: async (key) => void (await storage.delete(`${AUTH_PREFIX}${key}`)),
  };
}

/** The session's connected MCP servers (none when it has not added any). */
export async function sessionMcpServers(storage: DurableObjectStorage): Promise<SessionMcpServer[]> {
  return (await storage.get<SessionMcpServer[]>(SERVERS_KEY)) ?? [];
}

/** Adds a server to the session's list, or replaces the entry with the same URL. */
export async function addSessionMcpServer(
  storage: DurableObjectStorage,
  server: SessionMcpServer,
): Promise<void> {
  const servers = (await sessionMcpServers(storage)).filter((entry) => entry.url !== server.url);
  await storage.put(SERVERS_KEY, [...servers, server]);
}
