/**
 * How a connection lives and ends: the GET stream against servers that offer none or keep ending it
 * empty, the caller's signal (an abort that lands late, the listener removed on close), and the cap
 * on a request that keeps reporting progress. The servers are fetch functions that stop by themselves.
 */
import { describe, expect, it, vi } from "vitest";
import { connectMcp, type McpConnection } from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";
import { toolContext } from "../support/tool-context.ts";
import { sessionServer as server } from "./support/session-server.ts";

const context = toolContext();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function connected(options: Parameters<typeof connectMcp>[0]): Promise<McpConnection> {
  const result = await connectMcp(options);
  if (!result.ok) throw result.error;
  return result.value;
}

describe("the GET stream", () => {
  it("is not opened again when the server answers it with a page instead of an event stream", async () => {
    let gets = 0;
    const fetch = server((method) => {
      if (method !== "GET") return undefined;
      gets++;
      return new Response("<html>MCP lives here</html>", { headers: { "content-type": "text/html" } });
    });
    const connection = await connected({ url: "http://mcp.test/mcp", fetch });
    await vi.waitFor(() => expect(gets).toBe(1));
    await sleep(800); // the old loop opened it again every 250 ms
    expect(gets).toBe(1);
    await connection.close();
  });

  it("is opened again less and less often while each one ends without an event", async () => {
    let gets = 0;
    const fetch = server((method) => {
      if (method !== "GET") return undefined;
      gets++;
      return new Response(": nothing\n\n", { headers: { "content-type": "text/event-stream" } });
    });
    const connection = await connected({ url: "http://mcp.test/mcp", fetch });
    await sleep(1_300); // pauses of 500 and 1 000 ms after empty streams; the old loop paused 250 each time
    await connection.close();
    expect(gets).toBeGreaterThanOrEqual(1);
    expect(gets).toBeLessThanOrEqual(3);
  });
});

describe("the caller's signal", () => {
  it("aborted after the last answer but before connectMcp returned gives an AbortError and ends the session", async () => {
    const controller = new AbortController();
    const deletes: Array<string | null> = [];
    const fetch = server((method, message, init) => {
      if (method === "DELETE") deletes.push(new Headers(init.headers).get("mcp-session-id"));
      if (message?.method === "tools/list") controller.abort();
      return undefined;
    });
    const result = await connectMcp({ url: "http://mcp.test/mcp", fetch, signal: controller.signal });
    expect(result.ok ? undefined : result.error).toMatchObject({ _tag: "AbortError", code: "ABORTED" });
    await vi.waitFor(() => expect(deletes).toEqual(["s-1"]));
  });

  it("loses the listener connectMcp put on it when the connection is closed", async () => {
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, "addEventListener");
    const removed = vi.spyOn(controller.signal, "removeEventListener");
    const connection = await connected({
      url: "http://mcp.test/mcp",
      fetch: server(() => undefined),
      signal: controller.signal,
      listen: false,
    });
    const listener = added.mock.calls.at(-1)?.[1];
    removed.mockClear();
    await connection.close();
    expect(removed).toHaveBeenCalledWith("abort", listener);
  });
});

describe("a request that keeps reporting progress", () => {
  it("ends with a TIMEOUT at maxTotalTimeoutMs, though each report restarts timeoutMs", async () => {
    const encoder = new TextEncoder();
    const progressStream = (token: unknown, signal: AbortSignal | null | undefined) => {
      let timer: ReturnType<typeof setInterval> | undefined;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          timer = setInterval(() => {
            sent++;
            if (sent > 250) {
              clearInterval(timer); // stops by itself, answered or not
              stream.close();
              return;
            }
            const params = { progressToken: token, progress: sent };
            const event = { jsonrpc: "2.0", method: "notifications/progress", params };
            stream.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
          }, 20);
          signal?.addEventListener("abort", () => clearInterval(timer), { once: true });
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    const fetch = server((_method, message, init) => {
      if (message?.method !== "tools/call") return undefined;
      const meta = (message.params as JsonObject)._meta as JsonObject;
      return progressStream(meta.progressToken, init.signal);
    });
    const reports: number[] = [];
    const connection = await connected({
      url: "http://mcp.test/mcp",
      fetch,
      listen: false,
      timeoutMs: 300,
      maxTotalTimeoutMs: 900,
      onProgress: (_tool, progress) => reports.push(progress.progress),
    });
    await expect(connection.tools[0]?.execute({}, context)).rejects.toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      message: expect.stringContaining("MCP tools/call: The request took longer than 900 ms"),
    });
    expect(reports.length).toBeGreaterThan(1);
    await connection.close();
  });
});
