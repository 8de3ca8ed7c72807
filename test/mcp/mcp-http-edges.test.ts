/**
 * Answers to a POST that the Streamable HTTP transport (src/mcp/mcp-http.ts) refuses or reads in
 * part, where the other tests do not look: a 202 for a request, no content type, a JSON batch with a
 * notification beside the response (and one without a response), an event stream without a body, a
 * resumption answered with something other than events, JSON that is not JSON-RPC (quoted only in
 * part), and an answer past the size bound. The servers are fetch functions.
 */
import { describe, expect, it } from "vitest";
import { type ConnectMcpOptions, connectMcp, type McpConnection } from "../../src/mcp/index.ts";
import { toolContext } from "../support/tool-context.ts";
import { type Handler, sessionServer as server } from "./support/session-server.ts";

/** Answers each tools/call with `answer(id)`. */
function answeringCalls(answer: (id: unknown, init: RequestInit) => Response): Handler {
  return (_method, message, init) =>
    message?.method === "tools/call" ? answer(message.id, init) : undefined;
}

async function connected(fetch: typeof globalThis.fetch, options: Partial<ConnectMcpOptions> = {}) {
  const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false, ...options });
  if (!result.ok) throw result.error;
  return result.value;
}

/** What the one tool's call ends with, the connection closed after. */
async function callTool(connection: McpConnection): Promise<unknown> {
  try {
    return await connection.tools[0]?.execute({}, toolContext());
  } finally {
    await connection.close();
  }
}

const okResult = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text: "done" }] },
});
const logged = {
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { level: "info", data: "working" },
};

describe("an answer to a request", () => {
  it("of 202 without a response is a ParseError saying the request went unanswered", async () => {
    const connection = await connected(server(answeringCalls(() => new Response(null, { status: 202 }))));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_MALFORMED",
      message: expect.stringContaining("The MCP server accepted a request without answering it"),
    });
  });

  it("without a content type is a ParseError naming the (empty) type", async () => {
    const connection = await connected(server(answeringCalls(() => new Response(null, { status: 200 }))));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      message: expect.stringContaining('The MCP server answered with content type ""'),
    });
  });

  it("as a JSON batch delivers the notifications beside the response", async () => {
    const notifications: string[] = [];
    const connection = await connected(
      server(answeringCalls((id) => Response.json([logged, okResult(id)]))),
      { onNotification: (method, params) => notifications.push(`${method} ${String(params.data)}`) },
    );
    expect(JSON.stringify(await callTool(connection))).toContain("done");
    expect(notifications).toEqual(["notifications/message working"]);
  });

  it("as JSON holding no response is a ParseError", async () => {
    const connection = await connected(server(answeringCalls(() => Response.json([logged]))));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      message: expect.stringContaining("The MCP server's JSON answer has no response"),
    });
  });

  it("as an event stream without a body is a ParseError", async () => {
    const connection = await connected(
      server(answeringCalls(() => new Response(null, { headers: { "content-type": "text/event-stream" } }))),
    );
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      message: expect.stringContaining("The MCP server's event stream has no body"),
    });
  });

  it("as JSON that is not JSON-RPC is a ParseError quoting its first 80 characters", async () => {
    const text = JSON.stringify({ hello: "x".repeat(200) });
    const connection = await connected(
      server(answeringCalls(() => new Response(text, { headers: { "content-type": "application/json" } }))),
    );
    const error = await callTool(connection).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "ParseError" });
    expect((error as Error).message).toContain(
      `The MCP server sent JSON that is not JSON-RPC 2.0: ${text.slice(0, 80)} (POST`,
    );
  });

  it("longer than 16 MiB is refused, saying so", async () => {
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    const huge = () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(stream) {
          if (sent++ > 17) stream.close();
          else stream.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { "content-type": "application/json" } });
    };
    const connection = await connected(server(answeringCalls(huge)));
    const error = await callTool(connection).catch((thrown: unknown) => thrown);
    expect(JSON.stringify(error)).toContain(`The answer is longer than ${16 * 1024 * 1024} characters`);
  });
});

describe("a stream resumed after it ended without its response", () => {
  it("answered with JSON instead of events is a ParseError, not resumed again", async () => {
    let resumes = 0;
    const fetch = server((method, message, init) => {
      if (message?.method === "tools/call")
        return new Response("id: e1\ndata: \n\n", { headers: { "content-type": "text/event-stream" } });
      if (method === "GET" && new Headers(init.headers).get("last-event-id") === "e1") {
        resumes++;
        return Response.json({ jsonrpc: "2.0", method: "notifications/message", params: {} });
      }
      return undefined;
    });
    const connection = await connected(fetch);
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_MALFORMED",
      message: expect.stringContaining("The MCP server resumed a stream with something other than events"),
    });
    expect(resumes).toBe(1);
  });
});
