/**
 * `wisp-agent/mcp`: tools from MCP servers over Streamable HTTP (in progress).
 *
 * @module
 */

export {};
