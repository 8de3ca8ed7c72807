/**
 * connectMcp at its edges, against servers in a fetch function: options that throw when read or are
 * wrong twice over, headers that cannot be sent, the client name sent in `initialize`, which
 * notifications reach `onResourceUpdated`, a server without tools that fails `tools/list` for another
 * reason, a `filter` that throws (at connect and on refresh), which notifications read the tool list
 * again, two refreshes whose answers arrive out of order, and (un)subscribing under an aborted signal.
 */
import { describe, expect, it } from "vitest";
import { connectMcp, type McpToolInfo } from "../../src/mcp/index.ts";
import { failure, okValue } from "../support/results.ts";

interface Message {
  id?: number;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * A server in a fetch function: `answer` gives each method's result (or a JSON-RPC error, an object
 * with `code`); `before` gives messages sent ahead of a method's answer, on an event stream.
 */
function serverOf(
  answer: (method: string) => object | Promise<object>,
  before: (method: string) => object[] = () => [],
): { fetch: typeof globalThis.fetch; received: Message[] } {
  const received: Message[] = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    const message = JSON.parse(String(init?.body)) as Message;
    received.push(message);
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result = await answer(message.method);
    const body =
      "code" in result
        ? { jsonrpc: "2.0", id: message.id, error: result }
        : { jsonrpc: "2.0", id: message.id, result };
    const ahead = before(message.method);
    if (ahead.length === 0) return Response.json(body);
    const events = [...ahead, body]
      .map((value) => `event: message\ndata: ${JSON.stringify(value)}\n\n`)
      .join("");
    return new Response(events, { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, received };
}

const INITIALIZED = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "t" } };
const tool = { name: "one", inputSchema: { type: "object" } };
const withTools = () => serverOf((method) => (method === "initialize" ? INITIALIZED : { tools: [tool] }));

/** A connection to `fetch`'s server (no GET stream) and the tool names of each onToolsChanged call. */
async function watchingTools(fetch: typeof globalThis.fetch) {
  const changes: string[][] = [];
  const connection = okValue(
    await connectMcp({
      url: "http://mcp.test/mcp",
      fetch,
      listen: false,
      onToolsChanged: (tools) => changes.push(tools.map((each) => each.name)),
    }),
  );
  return { connection, changes };
}

describe("connectMcp options", () => {
  it("resolves with a failed Result when reading the options throws", async () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("hostile getter");
        },
      },
    );
    const result = await connectMcp(hostile as never);
    expect(failure(result).message).toContain("hostile getter");
  });

  it("reports the url, not the telemetry, when both are wrong", async () => {
    const error = failure(await connectMcp({ url: "not a url", telemetry: { tracer: 5 } as never }));
    expect(error.path).toBe("url");
  });

  it("says why headers that cannot be sent are refused", async () => {
    const { fetch, received } = withTools();
    const error = failure(
      await connectMcp({ url: "http://mcp.test/mcp", fetch, headers: { "bad header": "x" } }),
    );
    expect(error._tag).toBe("ConfigError");
    expect(error.path).toBe("headers");
    expect(error.message).toMatch(/^connectMcp: headers cannot be sent \(.+\)$/);
    expect(received).toEqual([]);
  });

  it("introduces itself as wisp-agent unless given a clientName", async () => {
    const { fetch, received } = withTools();
    const connection = okValue(await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false }));
    await connection.close();
    expect(received[0]?.params?.clientInfo).toEqual({ name: "wisp-agent", version: "1" });
  });
});

describe("connectMcp and the server", () => {
  it("tells onResourceUpdated of resources/updated only, not of other notifications carrying a uri", async () => {
    const { fetch } = serverOf(
      (method) => (method === "initialize" ? INITIALIZED : { tools: [tool] }),
      (method) =>
        method === "tools/list"
          ? [
              { jsonrpc: "2.0", method: "notifications/custom", params: { uri: "r://other" } },
              { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "r://changed" } },
            ]
          : [],
    );
    const updated: string[] = [];
    const heard: string[] = [];
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch,
        listen: false,
        onResourceUpdated: (uri) => updated.push(uri),
        onNotification: (method) => heard.push(method),
      }),
    );
    await connection.close();
    expect(heard).toEqual(["notifications/custom", "notifications/resources/updated"]);
    expect(updated).toEqual(["r://changed"]);
  });

  it("fails to connect when a server without tools fails tools/list for another reason than not having it", async () => {
    const { fetch } = serverOf((method) =>
      method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: { prompts: {} }, serverInfo: { name: "p" } }
        : { code: -32603, message: "Internal error" },
    );
    const error = failure(await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false }));
    expect(error).toMatchObject({ _tag: "ProviderError", providerCode: "-32603" });
  });

  it("fails as an mcp error when the filter throws, at connect and on refresh", async () => {
    const { fetch } = withTools();
    const throwing = (): boolean => {
      throw new Error("filter broke");
    };
    const atConnect = failure(
      await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false, filter: throwing }),
    );
    expect(atConnect).toMatchObject({ _tag: "RequestError", provider: "mcp" });
    expect(atConnect.message).toContain("filter broke");

    let calls = 0;
    const filter = (info: McpToolInfo): boolean => (calls++ === 0 ? info.name === "one" : throwing());
    const connection = okValue(
      await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false, filter }),
    );
    const refreshed = failure(await connection.refreshTools());
    await connection.close();
    expect(refreshed).toMatchObject({ _tag: "RequestError", provider: "mcp" });
    expect(refreshed.message).toContain("filter broke");
  });
});

describe("connectMcp and its tool list", () => {
  it("reads the tool list again on notifications/tools/list_changed only, not on other notifications", async () => {
    const { fetch, received } = serverOf(
      (method) => (method === "initialize" ? INITIALIZED : { tools: [tool] }),
      (method) =>
        method === "tools/list"
          ? [
              { jsonrpc: "2.0", method: "notifications/custom", params: {} },
              { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "r://changed" } },
            ]
          : [],
    );
    const { connection, changes } = await watchingTools(fetch);
    okValue(await connection.refreshTools());
    await connection.close();
    expect(received.filter((message) => message.method === "tools/list")).toHaveLength(2);
    expect(changes).toEqual([["one"]]);
  });

  it("keeps the list of the refresh asked for last when the earlier one's answer arrives after it", async () => {
    let lists = 0;
    let releaseFirst: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const { fetch } = serverOf(async (method) => {
      if (method === "initialize") return INITIALIZED;
      lists += 1;
      if (lists === 1) return { tools: [tool] };
      if (lists === 2) {
        await firstHeld;
        return { tools: [{ name: "stale", inputSchema: { type: "object" } }] };
      }
      return { tools: [{ name: "fresh", inputSchema: { type: "object" } }] };
    });
    const { connection, changes } = await watchingTools(fetch);
    const earlier = connection.refreshTools();
    const later = connection.refreshTools();
    expect(okValue(await later).map((each) => each.name)).toEqual(["fresh"]);
    releaseFirst();
    expect(okValue(await earlier).map((each) => each.name)).toEqual(["stale"]);
    await connection.close();
    expect(connection.tools.map((each) => each.name)).toEqual(["fresh"]);
    expect(changes).toEqual([["fresh"]]);
  });
});

describe("connectMcp resource subscriptions", () => {
  it.each([
    ["subscribeResource", "resources/subscribe"],
    ["unsubscribeResource", "resources/unsubscribe"],
  ] as const)("%s under an aborted signal fails as ABORTED and sends nothing", async (name, method) => {
    const { fetch, received } = withTools();
    const connection = okValue(await connectMcp({ url: "http://mcp.test/mcp", fetch, listen: false }));
    const error = failure(await connection[name]("r://one", AbortSignal.abort()));
    await connection.close();
    expect(error).toMatchObject({ code: "ABORTED" });
    expect(received.map((message) => message.method)).not.toContain(method);
  });
});
