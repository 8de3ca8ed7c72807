/**
 * How `connectMcp` fails: every failure a typed SdkError, never a hang. Servers that misbehave on
 * purpose are fetch functions answering by hand (the official server never misbehaves), plus a real
 * loopback server that never answers and a port nothing listens on. Pagination runs against the
 * official SDK's low-level Server through its web-standard transport, in-process.
 */
import { createServer, type Server as HttpServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runAgent } from "../../src/index.ts";
import { connectMcp, type McpServerRecord, McpToolFailure } from "../../src/mcp/index.ts";
import { McpClient } from "../../src/mcp/mcp-client.ts";
import { McpHttp } from "../../src/mcp/mcp-http.ts";
import type { JsonObject } from "../../src/types.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { toolContext } from "../support/tool-context.ts";

const context = toolContext();

type Answer = JsonObject | JsonObject[] | Response | undefined;

/** A fetch that answers each JSON-RPC message with `answer(message)`: a result, a Response, or 202. */
function handWritten(answer: (message: JsonObject, headers: Headers) => Answer): typeof fetch {
  return async (_input, init) => {
    const message = JSON.parse(String(init?.body)) as JsonObject;
    const headers = new Headers(init?.headers);
    const reply = answer(message, headers);
    if (reply instanceof Response) return reply;
    if (reply === undefined) return new Response(null, { status: 202 });
    const body = Array.isArray(reply) ? reply : { jsonrpc: "2.0", id: message.id as number, result: reply };
    return Response.json(body, { headers: { "mcp-session-id": "s-1" } });
  };
}

const INITIALIZED = {
  protocolVersion: "2025-06-18",
  capabilities: { tools: {} },
  serverInfo: { name: "hand" },
};

function basicServer(extra: (message: JsonObject) => Answer = () => undefined) {
  return handWritten((message) => {
    if (message.method === "initialize") return INITIALIZED;
    if (message.method === "tools/list")
      return {
        tools: [
          { name: "t", inputSchema: { type: "object" }, outputSchema: { type: "object", required: ["n"] } },
        ],
      };
    return extra(message);
  });
}

describe("failures are typed SdkErrors", () => {
  it("a bad url is a ConfigError naming the option, before any request", async () => {
    const result = await connectMcp({ url: "ftp://example.com/mcp" });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "ConfigError", path: "url" });
  });

  it("a timeoutMs no timer can take (Infinity, NaN, 2^31 and above, 0) is a ConfigError naming the option", async () => {
    const posted: unknown[] = [];
    const fetch = basicServer((message) => {
      posted.push(message);
      return undefined;
    });
    for (const timeoutMs of [Number.POSITIVE_INFINITY, Number.NaN, 2 ** 31, 2 ** 32 - 1, 0]) {
      const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, timeoutMs });
      expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "ConfigError", path: "timeoutMs" });
    }
    const total = await connectMcp({ url: "http://mcp.test/mcp", fetch, maxTotalTimeoutMs: Number.NaN });
    expect(total.ok ? undefined : total.error).toMatchObject({
      _tag: "ConfigError",
      path: "maxTotalTimeoutMs",
    });
    expect(posted).toEqual([]);
  });

  it("close never rejects, even when its timeout cannot be made into a signal", async () => {
    const client = new McpClient({
      transport: new McpHttp({
        url: "http://mcp.test/mcp",
        headers: new Headers(),
        fetch: async () => new Response(null, { status: 200 }),
      }),
      timeoutMs: Number.POSITIVE_INFINITY,
      maxTotalTimeoutMs: Number.POSITIVE_INFINITY,
      clientName: "test",
      onNotification: () => {},
    });
    client.adopt("s-1", "2025-06-18");
    await expect(client.close()).resolves.toBeUndefined();
  });

  it("a resume that is not a record, has a session id that is not text, or was kept for another server is a ConfigError", async () => {
    let requests = 0;
    const fetch: typeof globalThis.fetch = async () => {
      requests++;
      return new Response(null, { status: 500 });
    };
    const url = "http://mcp.test/mcp?token=abc";
    const cases: Array<[unknown, string]> = [
      [null, "resume"],
      ["s-1", "resume"],
      [
        { url: "http://mcp.test/mcp?token=[redacted]", protocolVersion: "2025-06-18", sessionId: 7 },
        "resume.sessionId",
      ],
      [{ url: "http://other.test/mcp", protocolVersion: "2025-06-18", sessionId: "s-1" }, "resume.url"],
    ];
    for (const [resume, path] of cases) {
      const result = await connectMcp({ url, fetch, resume: resume as McpServerRecord });
      expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "ConfigError", path });
    }
    expect(requests).toBe(0);
  });

  it("headers that cannot be sent are a ConfigError naming the option", async () => {
    const result = await connectMcp({ url: "http://mcp.test/mcp", headers: { "bad header": "x" } });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "ConfigError", path: "headers" });
  });

  it("a port nothing listens on is a NETWORK RequestError", async () => {
    const result = await connectMcp({ url: "http://127.0.0.1:9/mcp", timeoutMs: 5_000 });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "RequestError", code: "NETWORK" });
  });

  it("a 401 is an AUTH ProviderError with its status", async () => {
    const fetch = handWritten(() => new Response("no", { status: 401 }));
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ProviderError",
      code: "AUTH",
      status: 401,
      provider: "mcp",
    });
  });

  it("a JSON-RPC error answer is a ProviderError carrying the JSON-RPC code", async () => {
    const fetch = handWritten((message) => [
      { jsonrpc: "2.0", id: message.id as number, error: { code: -32603, message: "boom" } },
    ]);
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ProviderError",
      code: "SERVER_ERROR",
      providerCode: "-32603",
      message: "MCP initialize failed: boom (JSON-RPC error -32603)",
    });
  });

  it("a protocol version Wisp does not speak is refused", async () => {
    const fetch = handWritten(() => ({ ...INITIALIZED, protocolVersion: "1999-01-01" }));
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ProviderError",
      providerCode: "unsupported_protocol_version",
    });
  });

  it("an answer that is not JSON is a STREAM_MALFORMED ParseError", async () => {
    const fetch = handWritten(
      () => new Response("{oops", { headers: { "content-type": "application/json" } }),
    );
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ParseError",
      code: "STREAM_MALFORMED",
    });
  });

  it("an event stream that ends before its response is a STREAM_TRUNCATED ParseError", async () => {
    const fetch = handWritten(
      () =>
        new Response(
          'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n',
          {
            headers: { "content-type": "text/event-stream" },
          },
        ),
    );
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ParseError",
      code: "STREAM_TRUNCATED",
    });
  });

  it("a stream that ends before its response and resumes to nothing gives up with STREAM_TRUNCATED", async () => {
    let resumes = 0;
    const inner = basicServer();
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const events = (text: string) =>
        new Response(text, { headers: { "content-type": "text/event-stream" } });
      if (init?.method === "GET") {
        resumes++;
        expect(new Headers(init.headers).get("last-event-id")).toBe("e1");
        return events(": nothing new\n\n");
      }
      const message = JSON.parse(String(init?.body)) as JsonObject;
      return message.method === "tools/list" ? events("id: e1\ndata: \n\n") : inner(input, init);
    };
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ParseError",
      code: "STREAM_TRUNCATED",
    });
    expect(resumes).toBe(5);
  });

  it("a server that answers 404 again after a fresh initialize gives NOT_FOUND, not a loop", async () => {
    let initializes = 0;
    const fetch = handWritten((message, headers) => {
      if (message.method === "initialize") {
        initializes++;
        return INITIALIZED;
      }
      if (message.method === "tools/list" && headers.get("mcp-session-id") !== null)
        return new Response("gone", { status: 404 });
      return undefined;
    });
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ProviderError",
      code: "NOT_FOUND",
      status: 404,
    });
    expect(initializes).toBe(2);
  });

  it("structured content that does not match the output schema fails the call", async () => {
    const fetch = basicServer((message) =>
      message.method === "tools/call" ? { content: [], structuredContent: { m: 1 } } : undefined,
    );
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    if (!result.ok) throw result.error;
    await expect(result.value.tools[0]?.execute({}, context)).rejects.toThrow(
      new McpToolFailure(
        "the MCP server's structuredContent does not match the tool's outputSchema: n: required",
      ),
    );
  });

  it("answers the server's ping sent on the response stream", async () => {
    const posted: JsonObject[] = [];
    const fetch = handWritten((message) => {
      posted.push(message);
      if (message.method === "initialize") {
        const ping = JSON.stringify({ jsonrpc: "2.0", id: "p1", method: "ping" });
        const response = JSON.stringify({ jsonrpc: "2.0", id: message.id as number, result: INITIALIZED });
        return new Response(`data: ${ping}\n\ndata: ${response}\n\n`, {
          headers: { "content-type": "text/event-stream" },
        });
      }
      if (message.method === "tools/list") return { tools: [] };
      return undefined;
    });
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    expect(result.ok).toBe(true);
    expect(posted).toContainEqual({ jsonrpc: "2.0", id: "p1", result: {} });
  });
});

describe("an abort", () => {
  it("of a call whose signal was aborted before it started sends nothing to the server", async () => {
    const posted: string[] = [];
    const fetch = basicServer((message) => {
      posted.push(String(message.method));
      return undefined;
    });
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    if (!result.ok) throw result.error;
    const controller = new AbortController();
    controller.abort();
    await expect(
      result.value.tools[0]?.execute({}, { ...context, signal: controller.signal }),
    ).rejects.toMatchObject({
      _tag: "AbortError",
    });
    expect(posted).toEqual(["notifications/initialized"]);
  });
});

describe("a server that never answers", () => {
  let silent: HttpServer;
  let url = "";
  const held: Array<{ destroyed: boolean }> = [];
  beforeAll(async () => {
    silent = createServer((request) => {
      held.push(request.socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("gives a TIMEOUT RequestError after timeoutMs and closes the connection", async () => {
    const result = await connectMcp({ url, timeoutMs: 200 });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      provider: "mcp",
    });
    expect(held.length).toBe(1);
    await vi.waitFor(() => expect(held[0]?.destroyed).toBe(true));
  });

  it("an abort while connecting gives an AbortError", async () => {
    const controller = new AbortController();
    const pending = connectMcp({ url, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "AbortError", code: "ABORTED" });
  });
});

describe("an answer that stalls", () => {
  it("through a fetch that ignores its signal, ends with the abort, not a hang", async () => {
    const stalled: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start: (controller) => controller.enqueue(new TextEncoder().encode('{"jsonrpc"')),
        }),
        { headers: { "content-type": "application/json" } },
      );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: stalled,
      signal: controller.signal,
    });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "AbortError", code: "ABORTED" });
  });
});

describe("a server that goes away in the middle of its answer", () => {
  let dying: HttpServer;
  let url = "";
  beforeAll(async () => {
    dying = createServer((request, response) => {
      request.resume();
      // The answer begins (200, an event stream, half an event), then the server is gone.
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write('event: message\ndata: {"jsonrpc":"2.0",', () =>
        setTimeout(() => response.socket?.destroy(), 10),
      );
    });
    await new Promise<void>((resolve) => dying.listen(0, "127.0.0.1", resolve));
    const address = dying.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  });
  afterAll(() => new Promise((resolve) => dying.close(resolve)));

  it("says the answer was lost, not that the server could not be reached", async () => {
    const result = await connectMcp({ url });
    const error = result.ok ? undefined : result.error;
    expect(error).toMatchObject({ _tag: "RequestError", code: "NETWORK", provider: "mcp" });
    expect(error?.message).toMatch(new RegExp(`^Lost the stream from ${url} \\(POST\\): `));
  });
});

describe("pagination", () => {
  it("reads every page of tools/list from the official low-level server", async () => {
    const pages = [["a", "b"], ["c"], ["d"]];
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => "paged" });
    const server = new Server({ name: "paged", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const index = Number(request.params?.cursor ?? 0);
      const names = pages[index] ?? [];
      return {
        tools: names.map((name) => ({ name, inputSchema: { type: "object" as const } })),
        ...(index + 1 < pages.length ? { nextCursor: String(index + 1) } : {}),
      };
    });
    await server.connect(transport);
    const fetch: typeof globalThis.fetch = (input, init) => transport.handleRequest(new Request(input, init));
    const result = await connectMcp({ url: "http://paged.test/mcp", fetch, listen: false });
    if (!result.ok) throw result.error;
    expect(result.value.tools.map((tool) => tool.name)).toEqual(["a", "b", "c", "d"]);
    await result.value.close();
    await server.close();
  });
});

describe("a server that redirects", () => {
  let redirecting: HttpServer;
  let url = "";
  const seenElsewhere: Array<string | undefined> = [];
  beforeAll(async () => {
    redirecting = createServer((request, response) => {
      if (request.url === "/elsewhere") {
        seenElsewhere.push(request.headers["x-api-key"] as string | undefined);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      response.writeHead(307, { location: "/elsewhere?token=secret" }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const address = redirecting.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  });
  afterAll(async () => {
    redirecting.closeAllConnections();
    await new Promise((resolve) => redirecting.close(resolve));
  });

  it("is not followed, so the headers never reach the other address: a ConfigError at url names it", async () => {
    const result = await connectMcp({ url, headers: { "x-api-key": "k-123" } });
    const error = result.ok ? undefined : result.error;
    expect(error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "url",
      provider: "mcp",
    });
    expect(error?.message).toContain("redirect to http://127.0.0.1:");
    expect(error?.message).not.toContain("secret");
    expect(seenElsewhere).toEqual([]);
  });
});

describe("a server's regexes", () => {
  // `^(a+)+$` against 30 a's and a "!" is 2^30 backtracking steps, many seconds with the event loop
  // frozen (no abort or timeout can stop a running regex), for each of the three places it appears.
  const hostile = "^(a+)+$";
  const slow = `${"a".repeat(30)}!`;
  const fetch = handWritten((message) => {
    if (message.method === "initialize") return INITIALIZED;
    if (message.method === "tools/list")
      return {
        tools: [
          {
            name: "lookup",
            inputSchema: {
              type: "object",
              properties: { q: { type: "string", pattern: hostile }, n: { type: "number" } },
              patternProperties: { [hostile]: { type: "number" } },
              additionalProperties: false,
            },
            outputSchema: { type: "object", properties: { v: { type: "string", pattern: hostile } } },
          },
        ],
      };
    if (message.method === "tools/call") return { content: [], structuredContent: { v: slow } };
    return undefined;
  });

  it("are never run: a catastrophic pattern cannot freeze the run", async () => {
    const connection = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    if (!connection.ok) throw connection.error;
    const { options } = scripted([calls(["lookup", { q: slow, [slow]: "x" }]), says("done")]);
    const result = await runAgent(options({ tools: connection.value.tools }));
    expect(result.ok).toBe(true);
    const toolResult = result.ok
      ? result.value.messages.find((message) => message.role === "tool_result")
      : undefined;
    expect(toolResult?.content[0]).toMatchObject({ output: JSON.stringify({ v: slow }), isError: false });
  });

  it("leave the rest of the schema checked", async () => {
    const connection = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    if (!connection.ok) throw connection.error;
    const lookup = connection.value.tools[0];
    expect(await lookup?.parseArgs?.({ q: slow, n: "1" })).toEqual({
      ok: false,
      message: "n: expected number, got string",
    });
  });
});

describe("a custom fetch that resolves to no Response", () => {
  it("is a ConfigError naming the fetch option, not a TypeError", async () => {
    const forgetful = (async () => undefined) as unknown as typeof fetch;
    const result = await connectMcp({ url: "http://127.0.0.1:9/mcp", fetch: forgetful });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "fetch",
    });
    expect(!result.ok && result.error.message).toMatch(
      /^The custom fetch resolved to undefined instead of a Response/,
    );
  });
});
