/**
 * McpClient's edges: what `initialize` sends, the messages of a refused protocol version, a closed
 * connection, a notification that times out, the request a JSON-RPC error answer names, and requests
 * around a re-handshake (sent only under the new session, an already aborted caller not kept waiting
 * for it, the GET stream opened again, no listener left on the caller's signal). The server is a
 * fetch function that forgets its session on demand and holds the next `initialize` until released.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { connectMcp, MCP_PROTOCOL_VERSIONS, type McpConnection } from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";
import { toolContext } from "../support/tool-context.ts";

type Id = string | number;

/** A session-keeping server that can forget its session, and hold the next initialize. */
function forgetfulServer(initialized: Partial<JsonObject> = {}) {
  let current: string | undefined;
  let initializes = 0;
  let held: Promise<void> | undefined;
  let release = (): void => {};
  let arrive = (): void => {};
  const log = {
    initializeParams: [] as JsonObject[],
    /** The session id of every tools/call, answered or not. */
    callSessions: [] as Array<string | null>,
    /** The session id of every GET stream opened. */
    streams: [] as Array<string | null>,
  };
  const answer = (id: Id, result: JsonObject, session?: string) =>
    Response.json({ jsonrpc: "2.0", id, result }, { headers: session ? { "mcp-session-id": session } : {} });
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    const session = new Headers(init?.headers).get("mcp-session-id");
    if (init?.method === "GET") {
      if (session !== current) return new Response("unknown session", { status: 404 });
      log.streams.push(session);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init.signal?.addEventListener("abort", () => controller.error(init.signal?.reason), { once: true });
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const message = JSON.parse(String(init.body)) as JsonObject;
    const id = message.id as Id;
    if (message.method === "initialize") {
      initializes++;
      log.initializeParams.push(message.params as JsonObject);
      const gate = held;
      held = undefined;
      if (gate !== undefined) {
        arrive();
        await gate;
      }
      current = `s-${initializes}`;
      const result = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, ...initialized };
      return answer(id, result as JsonObject, current);
    }
    if (message.method === "tools/call") log.callSessions.push(session);
    if (session !== current) return new Response("unknown session", { status: 404 });
    if (id === undefined) return new Response(null, { status: 202 });
    if (message.method === "tools/list")
      return answer(id, { tools: [{ name: "t", inputSchema: { type: "object" } }] });
    return answer(id, { content: [{ type: "text", text: `ran under ${session}` }] });
  };
  return {
    fetch,
    log,
    /** Forgets the session, and holds the next initialize until `release()`; resolves when it arrives. */
    forgetAndHold(): { arrived: Promise<void>; release: () => void } {
      current = undefined;
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return { arrived, release: () => release() };
    },
  };
}

async function connected(server: ReturnType<typeof forgetfulServer>, listen = false): Promise<McpConnection> {
  const result = await connectMcp({ url: "http://mcp.test/mcp", fetch: server.fetch, listen });
  if (!result.ok) throw result.error;
  return result.value;
}

const call = (connection: McpConnection, signal?: AbortSignal) =>
  connection.tools[0]?.execute({}, toolContext(signal));

describe("initialize", () => {
  it("sends the client's name and version", async () => {
    const server = forgetfulServer();
    const connection = await connected(server);
    expect(server.log.initializeParams[0]?.clientInfo).toEqual({ name: "wisp-agent", version: "1" });
    await connection.close();
  });

  it("refuses a protocol version Wisp does not speak, naming it and every version Wisp speaks", async () => {
    const server = forgetfulServer({ protocolVersion: "1999-01-01" });
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch: server.fetch, listen: false });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toContain(
      'The MCP server speaks protocol version "1999-01-01"; Wisp speaks ',
    );
    expect(result.error.message).toContain(MCP_PROTOCOL_VERSIONS.slice(0, 2).join(", "));
  });
});

describe("a closed connection", () => {
  it("refuses a request with a SESSION_CLOSED ConfigError saying to connect again", async () => {
    const connection = await connected(forgetfulServer());
    await connection.close();
    await expect(call(connection)).rejects.toMatchObject({
      _tag: "ConfigError",
      code: "SESSION_CLOSED",
      message: "The MCP connection to http://mcp.test/mcp is closed: connect again",
    });
  });
});

describe("a notification the server never answers", () => {
  it("is a TIMEOUT RequestError naming the notification and timeoutMs", async () => {
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      const message = JSON.parse(String(init?.body)) as JsonObject;
      if (message.method === "initialize")
        return Response.json({
          jsonrpc: "2.0",
          id: message.id as Id,
          result: { protocolVersion: "2025-06-18", capabilities: {} },
        });
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
      });
    };
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false, timeoutMs: 50 });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "RequestError", code: "TIMEOUT" });
    expect(result.ok ? "" : result.error.message).toContain(
      "MCP notifications/initialized took longer than 50 ms",
    );
  });
});

describe("a JSON-RPC error answer", () => {
  it("is a ProviderError naming the request it answered: a POST to the server's URL", async () => {
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      const message = JSON.parse(String(init?.body)) as JsonObject;
      return Response.json({
        jsonrpc: "2.0",
        id: message.id as Id,
        error: { code: -32603, message: "boom" },
      });
    };
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ProviderError",
      providerCode: "-32603",
      request: { method: "POST", url: "http://mcp.test/mcp" },
    });
  });
});

describe("during a re-handshake", () => {
  it("a call started meanwhile is sent only under the new session", async () => {
    const server = forgetfulServer();
    const connection = await connected(server);
    const { arrived, release } = server.forgetAndHold();
    const first = call(connection);
    await arrived;
    const during = call(connection);
    release();
    expect(await Promise.all([first, during])).toEqual(["ran under s-2", "ran under s-2"]);
    expect(server.log.callSessions).toEqual(["s-1", "s-2", "s-2"]);
    await connection.close();
  });

  it("a call whose signal is aborted already ends with an AbortError without waiting for it", async () => {
    const server = forgetfulServer();
    const connection = await connected(server);
    const { arrived, release } = server.forgetAndHold();
    const first = call(connection);
    await arrived;
    await expect(call(connection, AbortSignal.abort())).rejects.toMatchObject({
      _tag: "AbortError",
      code: "ABORTED",
    });
    // Released only now: a call that waited for the handshake would never have settled.
    release();
    expect(await first).toBe("ran under s-2");
    await connection.close();
  });

  it("leaves no listener on the signal of a call that waited for it", async () => {
    const server = forgetfulServer();
    const connection = await connected(server);
    const { arrived, release } = server.forgetAndHold();
    const first = call(connection);
    await arrived;
    const signal = new AbortController().signal;
    const during = call(connection, signal);
    release();
    expect(await Promise.all([first, during])).toEqual(["ran under s-2", "ran under s-2"]);
    expect(getEventListeners(signal, "abort")).toEqual([]);
    await connection.close();
  });

  it("opens the GET stream again under the new session", async () => {
    const server = forgetfulServer();
    const connection = await connected(server, true);
    await vi.waitFor(() => expect(server.log.streams).toEqual(["s-1"]));
    const { arrived, release } = server.forgetAndHold();
    const first = call(connection);
    await arrived;
    release();
    expect(await first).toBe("ran under s-2");
    await vi.waitFor(() => expect(server.log.streams).toEqual(["s-1", "s-2"]));
    await connection.close();
  });
});
