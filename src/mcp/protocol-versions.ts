/**
 * The MCP protocol versions Wisp speaks: the same list as the official TypeScript SDK
 * (`SUPPORTED_PROTOCOL_VERSIONS` in `@modelcontextprotocol/sdk` 1.32), newest first.
 *
 * @module
 */

/** Every MCP protocol version Wisp's client accepts from a server, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
]);

/** The version Wisp asks for in `initialize`: the newest it speaks. */
export const MCP_LATEST_PROTOCOL_VERSION = "2025-11-25";
