/**
 * Answers to a POST that the Streamable HTTP transport (src/mcp/mcp-http.ts) refuses or reads in
 * part, where the other tests do not look: a 202 for a request, no content type, a JSON batch with a
 * notification beside the response (and one without a response), an event stream without a body, a
 * resumption answered with something other than events, JSON that is not JSON-RPC (quoted only in
 * part), and an answer past the size bound. The servers are fetch functions.
 */
import { describe, expect, it } from "vitest";
import { type ConnectMcpOptions, connectMcp, type McpConnection } from "../../src/mcp/index.ts";
import type { IncomingMessage } from "../../src/mcp/json-rpc.ts";
import { McpHttp } from "../../src/mcp/mcp-http.ts";
import { toolContext } from "../support/tool-context.ts";
import { type Handler, sessionServer as server, textResult } from "./support/session-server.ts";

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

/** An event stream of `text`, as a response. */
const events = (text: string, status = 200) =>
  new Response(text, { status, headers: { "content-type": "text/event-stream" } });
/** An SSE event holding `value` as its data. */
const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

describe("the requests the transport sends", () => {
  it("end the session with a DELETE that accepts JSON and event streams and carries no content type", async () => {
    const deletes: Headers[] = [];
    const connection = await connected(
      server((method, _message, init) => {
        if (method === "DELETE") deletes.push(new Headers(init.headers));
        return undefined;
      }),
    );
    await connection.close();
    expect(deletes.map((headers) => [headers.get("accept"), headers.get("content-type")])).toEqual([
      ["application/json, text/event-stream", null],
    ]);
  });

  it("keep no session when the server answers initialize with an empty Mcp-Session-Id", async () => {
    const seen: string[] = [];
    const connection = await connected(
      server((method, message, init) => {
        seen.push(`${method} ${String(message?.method)} ${new Headers(init.headers).get("mcp-session-id")}`);
        if (message?.method !== "initialize") return undefined;
        return Response.json(
          {
            jsonrpc: "2.0",
            id: message.id,
            result: { protocolVersion: "2025-06-18", capabilities: { tools: {} } },
          },
          { headers: { "mcp-session-id": "" } },
        );
      }),
    );
    await connection.close();
    expect(seen).toEqual([
      "POST initialize null",
      "POST notifications/initialized null",
      "POST tools/list null",
    ]);
  });
});

describe("a POST answered with an error status", () => {
  it("of 400 is an INVALID_REQUEST ProviderError, not taken for a redirect", async () => {
    const connection = await connected(server(answeringCalls(() => new Response("bad", { status: 400 }))));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ProviderError",
      code: "INVALID_REQUEST",
      status: 400,
    });
  });

  it("without a body says only the status and the request", async () => {
    const connection = await connected(server(answeringCalls(() => new Response(null, { status: 500 }))));
    const error = await callTool(connection).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "ProviderError", status: 500 });
    expect((error as Error).message).toBe("The MCP server answered 500 (POST http://mcp.test/mcp)");
  });

  it("whose body is exactly 16 MiB is read whole, as the server's error", async () => {
    const body = "x".repeat(16 * 1024 * 1024);
    const connection = await connected(server(answeringCalls(() => new Response(body, { status: 500 }))));
    await expect(callTool(connection)).rejects.toMatchObject({ _tag: "ProviderError", status: 500 });
  });
});

describe("an answer read in full", () => {
  it("that never ends is refused once past 16 MiB, without reading on", async () => {
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    let pulled = 0;
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(stream) {
            // Far past the bound: reading this far means the reader did not stop at it.
            if (++pulled > 40) stream.error(new Error("read on past the bound"));
            else stream.enqueue(chunk);
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    const connection = await connected(server(answeringCalls(endless)));
    const error = await callTool(connection).catch((thrown: unknown) => thrown);
    expect(JSON.stringify(error)).toContain(`The answer is longer than ${16 * 1024 * 1024} characters`);
  });
});

describe("an answer as an event stream", () => {
  it("that ends without its response and without event ids is a STREAM_TRUNCATED ParseError saying so", async () => {
    const connection = await connected(server(answeringCalls(() => events(event(logged)))));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_TRUNCATED",
      message: expect.stringContaining("The MCP server's event stream ended before its response (POST"),
    });
  });

  it("whose only event id is empty is not resumed", async () => {
    const gets: string[] = [];
    const connection = await connected(
      server((method, message, init) => {
        if (method === "GET") gets.push(String(new Headers(init.headers).get("last-event-id")));
        return message?.method === "tools/call" ? events("id:\ndata: \n\n") : undefined;
      }),
    );
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_TRUNCATED",
    });
    expect(gets).toEqual([]);
  });

  it("skips an event whose data is only white space and reads on to the response", async () => {
    const connection = await connected(
      server(answeringCalls((id) => events(`data:  \n\n${event(textResult(id, "done"))}`))),
    );
    expect(JSON.stringify(await callTool(connection))).toContain("done");
  });

  it("holding the response twice answers with the first", async () => {
    const connection = await connected(
      server(answeringCalls((id) => events(event([textResult(id, "first"), textResult(id, "second")])))),
    );
    const text = JSON.stringify(await callTool(connection));
    expect(text).toContain("first");
    expect(text).not.toContain("second");
  });

  it("a JSON answer holding the response twice answers with the first too", async () => {
    const connection = await connected(
      server(answeringCalls((id) => Response.json([textResult(id, "first"), textResult(id, "second")]))),
    );
    const text = JSON.stringify(await callTool(connection));
    expect(text).toContain("first");
    expect(text).not.toContain("second");
  });

  it("holding first a response to another request answers with the response to this one", async () => {
    const connection = await connected(
      server(answeringCalls((id) => events(event(textResult(999, "other")) + event(textResult(id, "mine"))))),
    );
    const text = JSON.stringify(await callTool(connection));
    expect(text).toContain("mine");
    expect(text).not.toContain("other");
  });

  it("with an event that is not JSON is a ParseError quoting its first 80 characters", async () => {
    const text = `not json ${"y".repeat(200)}`;
    const connection = await connected(server(answeringCalls(() => events(`data: ${text}\n\n`))));
    const error = await callTool(connection).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED" });
    expect((error as Error).message).toBe(
      `The MCP server sent text that is not JSON: ${text.slice(0, 80)} (POST http://mcp.test/mcp)`,
    );
  });
});

describe("a stream resumed while it keeps giving new event ids", () => {
  it("is resumed as often as it needs, more than 5 times, until its response", async () => {
    let resumes = 0;
    let callId: unknown;
    const fetch = server((method, message, init) => {
      if (message?.method === "tools/call") {
        callId = message.id;
        return events("id: e0\ndata: \n\n");
      }
      const last = new Headers(init.headers).get("last-event-id");
      if (method !== "GET" || last === null) return undefined;
      resumes++;
      return resumes < 8 ? events(`id: e${resumes}\ndata: \n\n`) : events(event(textResult(callId, "done")));
    });
    const connection = await connected(fetch);
    expect(JSON.stringify(await callTool(connection))).toContain("done");
    expect(resumes).toBe(8);
  });
});

describe("a resumption", () => {
  /** A tool call answered with a stream that ends after an event id, each resumption answered by `resumed`. */
  const resumedBy = (resumed: () => unknown) =>
    server((method, message, init) => {
      if (message?.method === "tools/call") return events("id: e1\ndata: \n\n");
      if (method === "GET" && new Headers(init.headers).get("last-event-id") === "e1")
        return resumed() as Response;
      return undefined;
    });

  it("not yet sent when the call times out is a TIMEOUT whose cause says it was waiting to resume", async () => {
    const fetch = server((_method, message) =>
      // The server asks for a 10 s wait before the resumption: the 200 ms timeout ends the call first.
      message?.method === "tools/call" ? events("retry: 10000\nid: e1\ndata: \n\n") : undefined,
    );
    const connection = await connected(fetch, { timeoutMs: 200 });
    const error = await callTool(connection).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "RequestError", code: "TIMEOUT" });
    expect(((error as Error).cause as Error).message).toBe("aborted while waiting to resume");
  });

  it("answered with an error status is a ProviderError naming the GET", async () => {
    const connection = await connected(resumedBy(() => new Response("gone away", { status: 500 })));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ProviderError",
      status: 500,
      request: { method: "GET", url: "http://mcp.test/mcp" },
    });
  });

  it("through a fetch that resolves to something other than a Response is a ConfigError naming the GET", async () => {
    const connection = await connected(resumedBy(() => ({ status: 200 })));
    await expect(callTool(connection)).rejects.toMatchObject({
      _tag: "ConfigError",
      path: "fetch",
      provider: "mcp",
      request: { method: "GET", url: "http://mcp.test/mcp" },
    });
  });
});

describe("the GET stream of what the server says unprompted", () => {
  const listening = (response: Response) => {
    const http = new McpHttp({
      url: "http://mcp.test/mcp",
      headers: new Headers(),
      fetch: async () => response,
    });
    const messages: IncomingMessage[] = [];
    const outcome = http.listen(
      new AbortController().signal,
      (message) => messages.push(message),
      () => {},
    );
    return { messages, outcome };
  };

  it("is not offered when the server answers 405", async () => {
    expect(await listening(new Response(null, { status: 405 })).outcome).toBe("not-offered");
  });

  it("answered with another error status is a ProviderError naming the GET", async () => {
    await expect(listening(events("", 500)).outcome).rejects.toMatchObject({
      _tag: "ProviderError",
      status: 500,
      request: { method: "GET", url: "http://mcp.test/mcp" },
    });
  });

  it("skips events without a message (empty or white space) and ends having delivered the others", async () => {
    const { messages, outcome } = listening(events(`id: 1\ndata: \n\ndata:  \n\n${event(logged)}`));
    expect(await outcome).toBe("ended");
    expect(messages).toEqual([{ kind: "notification", method: logged.method, params: logged.params }]);
  });
});

describe("McpHttp.post, on what fetch gives back", () => {
  const posting = (answer: () => unknown, awaiting?: number) =>
    new McpHttp({
      url: "http://mcp.test/mcp",
      headers: new Headers(),
      fetch: (async () => answer()) as unknown as typeof fetch,
    }).post(
      awaiting === undefined
        ? { jsonrpc: "2.0", method: "notifications/initialized" }
        : { jsonrpc: "2.0", id: awaiting, method: "tools/call" },
      { signal: new AbortController().signal, awaiting, onMessage: () => {} },
    );
  const aRedirect = expect.objectContaining({
    _tag: "ConfigError",
    message: expect.stringContaining("The MCP server answered with a redirect"),
  });

  it("a notification answered 200 without a body or content type resolves with nothing", async () => {
    expect(await posting(() => new Response(null, { status: 200 }))).toBeUndefined();
  });

  it("a fetch resolving to something other than a Response is a ConfigError naming the POST and provider", async () => {
    await expect(posting(() => ({ status: 200 }), 1)).rejects.toMatchObject({
      _tag: "ConfigError",
      path: "fetch",
      provider: "mcp",
      request: { method: "POST", url: "http://mcp.test/mcp" },
      message: expect.stringContaining("(POST http://mcp.test/mcp)"),
    });
  });

  it("an opaque redirect (what a browser's fetch gives for redirect: manual) is refused as a redirect", async () => {
    const opaque = () => {
      const response = Response.json({ jsonrpc: "2.0", id: 1, result: {} });
      Object.defineProperty(response, "type", { value: "opaqueredirect" });
      return response;
    };
    await expect(posting(opaque, 1)).rejects.toEqual(aRedirect);
  });

  it("a 300 Multiple Choices is refused as a redirect, not as an error status", async () => {
    const choices = () => new Response(null, { status: 300, headers: { location: "/elsewhere" } });
    await expect(posting(choices, 1)).rejects.toEqual(aRedirect);
  });
});
