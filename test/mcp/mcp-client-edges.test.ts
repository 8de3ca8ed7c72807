/**
 * McpClient's edges: what `initialize` sends, the messages of a refused protocol version, a closed
 * connection, a notification that times out, the request a JSON-RPC error answer names, and requests
 * around a re-handshake (sent only under the new session, an already aborted caller not kept waiting
 * for it, the GET stream opened again, no listener left on the caller's signal). The server is a
 * fetch function that forgets its session on demand and holds the next `initialize` until released.
 * Also: which requests are cancelled on the server and with what reason, notifications of other
 * methods that carry a progress token or a request id, a call sent while the app answers a question
 * of the server's, the GET stream ended by close(), and a second 404 after initializing again,
 * against a session server (support/session-server.ts) whose calls and GET stream the test writes to.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { connectMcp, MCP_PROTOCOL_VERSIONS, type McpConnection } from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";
import { useFakeClock } from "../support/fake-time.ts";
import { okValue } from "../support/results.ts";
import { toolContext } from "../support/tool-context.ts";
import { sessionServer } from "./support/session-server.ts";

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
  it("is a TIMEOUT RequestError naming the notification, timeoutMs and the POST", async () => {
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
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      request: { method: "POST", url: "http://mcp.test/mcp" },
    });
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

/** Writes one JSON-RPC message to an event stream (nothing once the stream has ended). */
type Push = (message: JsonObject) => void;

/** An event stream the test writes to, errored when `signal` aborts. */
function eventStream(signal: AbortSignal | null | undefined): { push: Push; response: Response } {
  const encoder = new TextEncoder();
  let push: Push = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (message) => {
        try {
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(message)}\n\n`));
        } catch {
          // the client gave the stream up
        }
      };
      signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
    },
  });
  return { push, response: new Response(body, { headers: { "content-type": "text/event-stream" } }) };
}

/** A tools/call the server has not answered yet. */
interface OpenCall {
  id: Id;
  params: JsonObject;
  push: Push;
}

/** The GET stream, open. */
interface OpenStream {
  push: Push;
  signal: AbortSignal | null | undefined;
}

/**
 * A session server that logs every message POSTed to it and answers each tools/call and the GET
 * stream with an event stream the test writes to (`nextCall()`, `nextStream()`).
 */
function streamingServer() {
  const posted: JsonObject[] = [];
  const waiting = {
    call: [] as Array<(call: OpenCall) => void>,
    stream: [] as Array<(stream: OpenStream) => void>,
  };
  const calls: OpenCall[] = [];
  const streams: OpenStream[] = [];
  const fetch = sessionServer((method, message, init) => {
    if (message !== undefined) posted.push(message);
    if (method === "GET") {
      const { push, response } = eventStream(init.signal);
      const stream: OpenStream = { push, signal: init.signal };
      streams.push(stream);
      waiting.stream.shift()?.(stream);
      return response;
    }
    if (message?.method !== "tools/call") return undefined;
    const { push, response } = eventStream(init.signal);
    const call = { id: message.id as Id, params: message.params as JsonObject, push };
    calls.push(call);
    waiting.call.shift()?.(call);
    return response;
  });
  return {
    fetch,
    posted,
    /** The next tools/call to arrive (or the one that arrived first and was not taken yet). */
    nextCall(): Promise<OpenCall> {
      const arrived = calls.shift();
      if (arrived !== undefined) return Promise.resolve(arrived);
      return new Promise((resolve) => waiting.call.push((call) => resolve(calls.shift() ?? call)));
    },
    /** The next GET stream to be opened. */
    nextStream(): Promise<OpenStream> {
      const opened = streams.shift();
      if (opened !== undefined) return Promise.resolve(opened);
      return new Promise((resolve) => waiting.stream.push((stream) => resolve(streams.shift() ?? stream)));
    },
  };
}

const FORM = { type: "object", properties: { name: { type: "string" } } };
const done = (id: Id): JsonObject => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text: "done" }] },
});
/** Lets every pending promise job run, and whatever they start. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("notifications/cancelled", () => {
  it("is not sent for an initialize the caller aborts (MCP forbids cancelling initialize)", async () => {
    const caller = new AbortController();
    const methods: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      const message = JSON.parse(String(init?.body)) as JsonObject;
      methods.push(message.method);
      if (message.method !== "initialize") return new Response(null, { status: 202 });
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
        caller.abort();
      });
    };
    const result = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch,
      listen: false,
      signal: caller.signal,
    });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "AbortError" });
    await settle();
    expect(methods).toEqual(["initialize"]);
  });

  it('names the call and gives the reason "aborted" when the caller gave the call up', async () => {
    const server = streamingServer();
    const connection = okValue(
      await connectMcp({ url: "http://mcp.test/mcp", fetch: server.fetch, listen: false }),
    );
    const caller = new AbortController();
    const calling = call(connection, caller.signal);
    const open = await server.nextCall();
    caller.abort();
    await expect(calling).rejects.toMatchObject({ _tag: "AbortError" });
    await vi.waitFor(() =>
      expect(server.posted).toContainEqual({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: open.id, reason: "aborted" },
      }),
    );
    await connection.close();
  });
});

describe("a notification of another method", () => {
  it("carrying a call's progress token does not reach onProgress", async () => {
    const server = streamingServer();
    const seen: unknown[] = [];
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch: server.fetch,
        listen: false,
        onProgress: (_tool, progress) => seen.push(progress),
      }),
    );
    const calling = call(connection);
    const open = await server.nextCall();
    const token = String((open.params._meta as JsonObject).progressToken);
    open.push({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { progressToken: token, progress: 1, level: "info", data: "x" },
    });
    open.push({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: token, progress: 2 },
    });
    open.push(done(open.id));
    expect(await calling).toBe("done");
    expect(seen).toEqual([{ progress: 2 }]);
    await connection.close();
  });

  it("naming the request id of a question the app is answering does not give the question up", async () => {
    const server = streamingServer();
    let asked: AbortSignal | undefined;
    let answer = (_result: { action: "accept"; content: JsonObject }): void => {};
    const notified: string[] = [];
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch: server.fetch,
        listen: false,
        onNotification: (method) => notified.push(method),
        onElicitation: (_request, { signal }) => {
          asked = signal;
          return new Promise((resolve) => {
            answer = resolve;
          });
        },
      }),
    );
    const calling = call(connection);
    const open = await server.nextCall();
    open.push({
      jsonrpc: "2.0",
      id: "q-1",
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: FORM },
    });
    await vi.waitFor(() => expect(asked).toBeDefined());
    open.push({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { requestId: "q-1", level: "info", data: "x" },
    });
    await vi.waitFor(() => expect(notified).toContain("notifications/message"));
    expect(asked?.aborted).toBe(false);
    answer({ action: "accept", content: { name: "Ada" } });
    await vi.waitFor(() =>
      expect(server.posted).toContainEqual({
        jsonrpc: "2.0",
        id: "q-1",
        result: { action: "accept", content: { name: "Ada" } },
      }),
    );
    open.push(done(open.id));
    expect(await calling).toBe("done");
    await connection.close();
  });
});

describe("while the app answers a question of the server's", () => {
  it("a call sent meanwhile does not time out, its clocks stopped until the answer", async () => {
    const server = streamingServer();
    let asked = false;
    let answer = (_result: { action: "decline" }): void => {};
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch: server.fetch,
        timeoutMs: 1_000,
        maxTotalTimeoutMs: 2_000,
        onElicitation: () =>
          new Promise((resolve) => {
            asked = true;
            answer = resolve;
          }),
      }),
    );
    const stream = await server.nextStream();
    stream.push({
      jsonrpc: "2.0",
      id: "q-1",
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: FORM },
    });
    await vi.waitFor(() => expect(asked).toBe(true));
    useFakeClock();
    try {
      let outcome: unknown;
      const calling = Promise.resolve(call(connection)).then(
        (output) => (outcome = output),
        (error: unknown) => (outcome = error),
      );
      const open = await server.nextCall();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(outcome).toBeUndefined();
      answer({ action: "decline" });
      await vi.waitFor(() =>
        expect(server.posted).toContainEqual({ jsonrpc: "2.0", id: "q-1", result: { action: "decline" } }),
      );
      open.push(done(open.id));
      await calling;
      expect(outcome).toBe("done");
    } finally {
      vi.useRealTimers();
    }
    await connection.close();
  });
});

describe("close()", () => {
  it("ends the GET stream", async () => {
    const server = streamingServer();
    const connection = okValue(await connectMcp({ url: "http://mcp.test/mcp", fetch: server.fetch }));
    const stream = await server.nextStream();
    await connection.close();
    expect(stream.signal?.aborted).toBe(true);
  });
});

describe("a second 404 after initializing again", () => {
  it("is a NOT_FOUND ProviderError naming the session, that it was initialized again, and the POST", async () => {
    const fetch = sessionServer((_method, message) =>
      message?.method === "tools/call" ? new Response("unknown session", { status: 404 }) : undefined,
    );
    const connection = okValue(await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false }));
    await expect(call(connection)).rejects.toMatchObject({
      _tag: "ProviderError",
      code: "NOT_FOUND",
      status: 404,
      message: "The MCP server no longer knows session s-1, even after initializing again",
      request: { method: "POST", url: "http://mcp.test/mcp" },
    });
    await connection.close();
  });
});

describe("a 404 for notifications/initialized", () => {
  /** A server that forgets its session on every tools/call, and answers 404 to `initialized` after `from` handshakes. */
  const forgetful = (from: number): typeof fetch => {
    let handshakes = 0;
    return sessionServer((_method, message) => {
      if (message?.method === "initialize") handshakes++;
      if (message?.method === "notifications/initialized" && handshakes >= from)
        return new Response("unknown session", { status: 404 });
      return message?.method === "tools/call" ? new Response("unknown session", { status: 404 }) : undefined;
    });
  };
  const notFound = {
    _tag: "ProviderError",
    code: "NOT_FOUND",
    status: 404,
    message: "The MCP server no longer knows session s-1",
    request: { method: "POST", url: "http://mcp.test/mcp" },
  };

  it("while connecting is a NOT_FOUND ProviderError naming the session and the POST", async () => {
    const connected = await connectMcp({ url: "http://mcp.test/mcp", fetch: forgetful(1), listen: false });
    expect(connected.ok).toBe(false);
    expect(connected.ok ? undefined : connected.error).toMatchObject(notFound);
  });

  it("during a re-handshake rejects the call with the same ProviderError, not an internal error", async () => {
    const connection = okValue(
      await connectMcp({ url: "http://mcp.test/mcp", fetch: forgetful(2), listen: false }),
    );
    await expect(call(connection)).rejects.toMatchObject(notFound);
    await connection.close();
  });
});

describe("a call the caller aborts while the server answers with a redirect", () => {
  it("ends with the caller's AbortError, not the redirect's ConfigError, and the server is told it was cancelled", async () => {
    const caller = new AbortController();
    const cancelled: unknown[] = [];
    const fetch = sessionServer((_method, message) => {
      if (message?.method === "notifications/cancelled") cancelled.push(message.params);
      if (message?.method !== "tools/call") return undefined;
      caller.abort(new Error("user stopped"));
      return new Response(null, { status: 307, headers: { location: "/elsewhere" } });
    });
    const connection = okValue(await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false }));
    try {
      await expect(connection.tools[0]?.execute({}, toolContext(caller.signal))).rejects.toMatchObject({
        _tag: "AbortError",
      });
      await vi.waitFor(() => expect(cancelled).toEqual([expect.objectContaining({ reason: "aborted" })]));
    } finally {
      await connection.close();
    }
  });
});

describe("a finished call", () => {
  it("leaves no timer behind to keep the process alive until its timeout would have passed", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const fetch = sessionServer((_method, message) =>
      message?.method === "tools/call"
        ? Response.json({ jsonrpc: "2.0", id: message.id, result: { content: [] } })
        : undefined,
    );
    const connection = okValue(
      await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false, timeoutMs: 600_000 }),
    );
    try {
      const before = timers();
      await connection.tools[0]?.execute({}, toolContext());
      // At most as many: another test's timer may have run out meanwhile, never one more.
      expect(timers()).toBeLessThanOrEqual(before);
    } finally {
      await connection.close();
    }
  });
});
