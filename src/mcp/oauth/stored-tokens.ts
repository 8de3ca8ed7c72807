/**
 * Reading and writing one server's tokens (with the grant that renews them) in the app's storage.
 *
 * @module
 */

import type { JsonObject } from "../../types.ts";
import { type McpAuthStorage, storageKey } from "./storage.ts";
import type { StoredTokens } from "./token-grant.ts";
import { isTokenSet } from "./token-request.ts";

/** The tokens kept for the server at `url`, or undefined. */
export async function readTokens(storage: McpAuthStorage, url: string): Promise<StoredTokens | undefined> {
  const value = await storage.get(storageKey("tokens", url));
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { tokens, grant } = value as { tokens?: unknown; grant?: unknown };
  return isTokenSet(tokens) && typeof grant === "object" && grant !== null
    ? (value as unknown as StoredTokens)
    : undefined;
}

/** Keeps tokens for the server at `url`. */
export function writeTokens(storage: McpAuthStorage, url: string, stored: StoredTokens): Promise<void> {
  return storage.set(storageKey("tokens", url), stored as unknown as JsonObject);
}

/** Forgets the tokens for the server at `url`. */
export function forgetTokens(storage: McpAuthStorage, url: string): Promise<void> {
  return storage.delete(storageKey("tokens", url));
}
