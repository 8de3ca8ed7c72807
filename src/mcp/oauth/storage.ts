/**
 * Where OAuth state lives between requests: a small async key–value interface the app supplies (a
 * Worker's KV or Durable Object storage, a page's IndexedDB, a file in a CLI), an in-memory default,
 * and the keys, namespaced by the MCP server's URL so one storage serves many servers.
 *
 * @module
 */

import type { JsonValue } from "../../types.ts";

/**
 * The storage behind `mcpOAuth`: tokens, client registrations, and a pending authorization's PKCE
 * verifier and `state`. Values are plain JSON. Everything stored is secret: keep the storage where
 * only this user's code reads it.
 */
export interface McpAuthStorage {
  /** The value stored under `key`, or undefined when there is none. */
  get(key: string): Promise<JsonValue | undefined>;
  /** Stores `value` under `key`, replacing what was there. */
  set(key: string, value: JsonValue): Promise<void>;
  /** Removes `key`; removing a key that is not there is fine. */
  delete(key: string): Promise<void>;
}

/**
 * A storage in memory, for one process or page (the default of `mcpOAuth`). Values are copied in and
 * out (a JSON round trip), so a caller changing what it got does not change what is stored.
 */
export function memoryAuthStorage(): McpAuthStorage {
  const values = new Map<string, string>();
  return {
    get: async (key) => {
      const text = values.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
    },
    set: async (key, value) => {
      values.set(key, JSON.stringify(value));
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
}

/** The prefix of every key Wisp stores. */
const PREFIX = "wisp-mcp-oauth";

/** What is stored for one server. */
export type StoredItem = "tokens" | "pending" | "client";

/**
 * The key of one item for one server: `wisp-mcp-oauth:<item>:<server URL>`. The URL is the MCP
 * endpoint without its fragment; a client registration is also keyed by its authorization server.
 */
export function storageKey(item: StoredItem, serverUrl: string, issuer?: string): string {
  const url = new URL(serverUrl);
  url.hash = "";
  return issuer === undefined ? `${PREFIX}:${item}:${url.href}` : `${PREFIX}:${item}:${url.href}:${issuer}`;
}
