/**
 * Layer `runtime` (docs/architecture.md): the runtime-specific entries: wisp-agent/testing/node, wisp-agent/mcp/stdio.
 *
 * `wisp-agent/mcp/stdio`: local MCP servers as child processes, over MCP's stdio transport
 * (newline-delimited JSON-RPC on stdin and stdout). Uses `node:child_process` (Node, Deno, Bun); the
 * session, tools and errors are `wisp-agent/mcp`'s. See docs/mcp.md.
 *
 * @example
 * ```ts
 * import { connectMcpStdio } from "wisp-agent/mcp/stdio";
 * const mcp = await connectMcpStdio({ command: "node", args: ["notes-server.mjs"], prefix: "notes_" });
 * if (mcp.ok) console.log(mcp.value.tools.map((tool) => tool.name));
 * ```
 *
 * @module wisp-agent/mcp/stdio
 */

export { connectMcpStdio, type McpStdioConnection } from "./connect-mcp-stdio.ts";
export type { ConnectMcpStdioOptions, McpStdioStderr } from "./mcp-stdio-options.ts";
