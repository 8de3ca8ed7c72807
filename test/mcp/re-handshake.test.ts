/**
 * Re-initializing after a 404 (the server forgot the session): one handshake shared by every request
 * that meets the 404 or starts during it, a failed one tried again by the next request, and each
 * waiter's own abort ending only its own wait. The server is a fetch function that restarts on demand
 * and holds or fails the next `initialize` as told.
 */
import { describe, expect, it } from "vitest";
import { connectMcp, type McpConnection } from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";
import { toolContext } from "../support/tool-context.ts";

const context = toolContext;

/** What the next `initialize` does before it answers: wait (it may reject), or nothing. */
type Gate = (signal: AbortSignal | null | undefined) => Promise<void>;

/** A gate held until `release()`; `arrived` resolves when the initialize reached the server. */
function heldGate(): { gate: Gate; arrived: Promise<void>; release: () => void } {
  let release = (): void => {};
  let arrive = (): void => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  const gate: Gate = (signal) => {
    arrive();
    return new Promise<void>((resolve, reject) => {
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      void opened.then(resolve);
    });
  };
  return { gate, arrived, release };
}

/** A session-keeping server that can restart (forgetting every session). */
function restartingServer() {
  let current: string | undefined;
  const gates: Gate[] = [];
  const callGates: Gate[] = [];
  const log = { initializes: 0, callSessions: [] as Array<string | null> };
  const answer = (id: JsonValueId, result: JsonObject, session?: string) =>
    Response.json({ jsonrpc: "2.0", id, result }, { headers: session ? { "mcp-session-id": session } : {} });
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    const session = new Headers(init?.headers).get("mcp-session-id");
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const message = JSON.parse(String(init.body)) as JsonObject;
    const id = message.id as JsonValueId;
    if (message.method === "initialize") {
      log.initializes++;
      await gates.shift()?.(init.signal);
      current = `s-${log.initializes}`;
      return answer(id, { protocolVersion: "2025-06-18", capabilities: { tools: {} } }, current);
    }
    if (message.method === "tools/call") await callGates.shift()?.(init.signal);
    if (session === null) return new Response("no session id", { status: 400 });
    if (session !== current) return new Response("unknown session", { status: 404 });
    if (id === undefined) return new Response(null, { status: 202 });
    if (message.method === "tools/list")
      return answer(id, { tools: [{ name: "t", inputSchema: { type: "object" } }] });
    log.callSessions.push(session);
    return answer(id, { content: [{ type: "text", text: `ran under ${session}` }] });
  };
  return {
    fetch,
    log,
    restart: () => {
      current = undefined;
    },
    nextInitialize: (gate: Gate) => gates.push(gate),
    /** Holds the next tools/call at the server before it looks at the session id. */
    nextCall: (gate: Gate) => callGates.push(gate),
  };
}

type JsonValueId = string | number;

async function connected(server: ReturnType<typeof restartingServer>): Promise<McpConnection> {
  const result = await connectMcp({ url: "http://mcp.test/mcp", fetch: server.fetch, listen: false });
  if (!result.ok) throw result.error;
  return result.value;
}

const call = (connection: McpConnection, signal?: AbortSignal) =>
  connection.tools[0]?.execute({}, context(signal));

describe("after the server forgot the session", () => {
  it("requests that meet the 404 together share one handshake, and a call started during it waits for the new session", async () => {
    const server = restartingServer();
    const connection = await connected(server);
    server.restart();
    const held = heldGate();
    server.nextInitialize(held.gate);
    const first = call(connection);
    const second = call(connection);
    await held.arrived;
    const during = call(connection);
    held.release();
    expect(await Promise.all([first, second, during])).toEqual([
      "ran under s-2",
      "ran under s-2",
      "ran under s-2",
    ]);
    expect(server.log.initializes).toBe(2);
    expect(server.log.callSessions).toEqual(["s-2", "s-2", "s-2"]);
    expect(connection.record().sessionId).toBe("s-2");
  });

  it("a re-handshake that fails keeps the old session id, so the next request meets the 404 and initializes again", async () => {
    const server = restartingServer();
    const connection = await connected(server);
    server.restart();
    server.nextInitialize(async () => {
      throw new TypeError("fetch failed");
    });
    await expect(call(connection)).rejects.toMatchObject({ _tag: "RequestError", code: "NETWORK" });
    expect(connection.record().sessionId).toBe("s-1");
    expect(await call(connection)).toBe("ran under s-3");
    expect(server.log.initializes).toBe(3);
  });

  it("one caller's abort ends its own wait but not the shared handshake another caller waits on", async () => {
    const server = restartingServer();
    const connection = await connected(server);
    server.restart();
    const held = heldGate();
    server.nextInitialize(held.gate);
    const controller = new AbortController();
    const aborted = call(connection, controller.signal);
    const other = call(connection);
    await held.arrived;
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ _tag: "AbortError", code: "ABORTED" });
    held.release();
    expect(await other).toBe("ran under s-2");
    expect(server.log.initializes).toBe(2);
  });

  it("a request whose 404 comes back after the new handshake ended retries under the new session, without another handshake", async () => {
    const server = restartingServer();
    const connection = await connected(server);
    server.restart();
    const held = heldGate();
    server.nextCall(held.gate);
    const late = call(connection);
    await held.arrived;
    expect(await call(connection)).toBe("ran under s-2");
    held.release();
    expect(await late).toBe("ran under s-2");
    expect(server.log.initializes).toBe(2);
  });
});

describe("the session id", () => {
  it("is taken from the answer to initialize only: a later answer naming another id does not move it", async () => {
    const sent: Array<string | null> = [];
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      if (init?.method !== "POST") return new Response(null, { status: 405 });
      const message = JSON.parse(String(init.body)) as JsonObject;
      sent.push(new Headers(init.headers).get("mcp-session-id"));
      const result =
        message.method === "initialize"
          ? { protocolVersion: "2025-06-18", capabilities: { tools: {} } }
          : message.method === "tools/list"
            ? { tools: [{ name: "t", inputSchema: { type: "object" } }] }
            : { content: [{ type: "text", text: "ok" }] };
      if (message.id === undefined) return new Response(null, { status: 202 });
      const id = message.method === "initialize" ? "first" : "hijacked";
      return Response.json({ jsonrpc: "2.0", id: message.id, result }, { headers: { "mcp-session-id": id } });
    };
    const connected = await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false });
    if (!connected.ok) throw connected.error;
    await connected.value.tools[0]?.execute({}, context());
    expect(sent.slice(1)).toEqual(["first", "first", "first"]);
    expect(connected.value.record().sessionId).toBe("first");
    await connected.value.close({ endSession: false });
  });
});
