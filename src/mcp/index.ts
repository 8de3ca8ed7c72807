/**
 * Layer `modules` (docs/architecture.md): the subpath entries: bridge, effect, formats, mcp, testing.
 *
 * `wisp-agent/mcp`: tools from MCP servers over Streamable HTTP, fetch-only — the same code in a
 * browser, a Worker (no `nodejs_compat`), Deno, Bun and Node. Tool arguments are checked without
 * code generation. See docs/mcp.md.
 *
 * @example
 * ```ts
 * import { connectMcp } from "wisp-agent/mcp";
 * const mcp = await connectMcp({ url: "http://127.0.0.1:3000/mcp", prefix: "notes_" });
 * if (mcp.ok) console.log(mcp.value.tools.map((tool) => tool.name));
 * ```
 *
 * @module wisp-agent/mcp
 */

export { McpToolFailure } from "./call-result.ts";
export {
  type ConnectMcpOptions,
  connectMcp,
  DEFAULT_MCP_TIMEOUT_MS,
  DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR,
  type McpConnection,
} from "./connect-mcp.ts";
export {
  type CheckJsonSchemaOptions,
  checkJsonSchema,
  formatSchemaIssues,
  type SchemaIssue,
} from "./json-schema-check.ts";
export type { McpCloseOptions, McpProgress } from "./mcp-client.ts";
export { MCP_METADATA_KEY, type McpServerRecord, mcpMetadata, mcpServerRecord } from "./mcp-metadata.ts";
export { type McpToolInfo, wispToolName } from "./mcp-tools.ts";
export { MCP_LATEST_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS } from "./protocol-versions.ts";
