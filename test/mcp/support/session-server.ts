/**
 * A Streamable HTTP MCP server as a fetch function: it keeps a session ("s-1"), answers initialize
 * and tools/list (one tool, "t"), and leaves every other exchange to the test's handler.
 */
import { connectMcp, type McpConnection } from "../../../src/mcp/index.ts";
import type { JsonObject } from "../../../src/types.ts";
import { okValue } from "../../support/results.ts";

/** The server's side of one exchange: a POSTed message, or a GET or DELETE (message undefined). */
export type Handler = (
  method: string,
  message: JsonObject | undefined,
  init: RequestInit,
) => Response | undefined;

/** A session-keeping server: initialize and tools/list answered, the rest left to `handler`. */
export function sessionServer(handler: Handler): typeof fetch {
  return async (_input, init = {}) => {
    const method = init.method ?? "GET";
    const message = method === "POST" ? (JSON.parse(String(init.body)) as JsonObject) : undefined;
    const answered = handler(method, message, init);
    if (answered !== undefined) return answered;
    if (message === undefined) return new Response(null, { status: method === "DELETE" ? 200 : 405 });
    const result =
      message.method === "initialize"
        ? { protocolVersion: "2025-06-18", capabilities: { tools: {} } }
        : message.method === "tools/list"
          ? { tools: [{ name: "t", inputSchema: { type: "object" } }] }
          : undefined;
    if (result === undefined) return new Response(null, { status: 202 });
    return Response.json(
      { jsonrpc: "2.0", id: message.id, result },
      { headers: { "mcp-session-id": "s-1" } },
    );
  };
}

/**
 * A connection to a session server that answers each method named in `results` with its result;
 * `asked` gets every request so answered.
 */
export async function connectAnswering(
  results: Record<string, JsonObject>,
  asked: JsonObject[] = [],
): Promise<McpConnection> {
  const fetch = sessionServer((_method, message) => {
    const result = message === undefined ? undefined : results[String(message.method)];
    if (message === undefined || result === undefined) return undefined;
    asked.push(message);
    return Response.json({ jsonrpc: "2.0", id: message.id, result });
  });
  return okValue(await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false }));
}

/** A JSON-RPC response to `id` holding a tool result of one text part. */
export const textResult = (id: unknown, text: string) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }] },
});
