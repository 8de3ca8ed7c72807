/**
 * MCP connection details as plain JSON in SessionState metadata, so a restored session reconnects to
 * the same server session: the URL (without secrets), the session id and the negotiated version —
 * never headers, tokens or keys. The caller still supplies the URL and its headers when connecting;
 * the record only adds the session to take over (a server that forgot it is initialized again).
 *
 * @module
 */

import { safeUrl } from "../http/safe-url.ts";
import type { JsonObject, JsonValue } from "../types.ts";

/** One server's connection details, as kept in metadata. */
export interface McpServerRecord {
  /** The server's URL with credentials and secret-looking query values taken out. */
  url: string;
  /** The session id the server gave; absent for a server without sessions. */
  sessionId?: string;
  /** The protocol version negotiated in `initialize`. */
  protocolVersion: string;
}

/** The metadata key the records are kept under. */
export const MCP_METADATA_KEY = "mcpServers";

/**
 * Metadata holding the records of these connections, to pass as a session's `metadata` (it is merged
 * over a restored state's metadata).
 *
 * @example
 * ```ts
 * const created = await createAgentSession({ model, tools: mcp.tools, metadata: mcpMetadata(mcp) });
 * ```
 */
export function mcpMetadata(...connections: ReadonlyArray<{ record(): McpServerRecord }>): JsonObject {
  const records: JsonValue[] = connections.map((connection) => ({ ...connection.record() }));
  return { [MCP_METADATA_KEY]: records };
}

function readRecord(value: JsonValue): McpServerRecord | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { url, sessionId, protocolVersion } = value;
  if (typeof url !== "string" || typeof protocolVersion !== "string" || protocolVersion === "")
    return undefined;
  const record: McpServerRecord = { url, protocolVersion };
  if (typeof sessionId === "string" && sessionId !== "") record.sessionId = sessionId;
  return record;
}

/**
 * The record kept for `url` in a SessionState's metadata, if there is one: pass it to `connectMcp` as
 * `resume`. Records are matched by the URL without secrets, so a URL carrying a token still matches.
 */
export function mcpServerRecord(metadata: JsonObject | undefined, url: string): McpServerRecord | undefined {
  const list = metadata?.[MCP_METADATA_KEY];
  if (!Array.isArray(list)) return undefined;
  const wanted = safeUrl(url);
  for (const value of list) {
    const record = readRecord(value);
    if (record?.url === wanted) return record;
  }
  return undefined;
}
