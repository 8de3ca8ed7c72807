/**
 * Progress tokens once their request ended (src/mcp/mcp-progress.ts): a `notifications/progress` that
 * arrives late for a finished call (here inside the next call's stream) reaches nobody's `onProgress`;
 * the next call's own progress does. The server is a fetch function.
 */
import { describe, expect, it } from "vitest";
import { connectMcp } from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";
import { toolContext } from "../support/tool-context.ts";
import { textResult } from "./support/session-server.ts";

const progress = (token: unknown, value: number) => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, progress: value },
});

describe("progress after its request ended", () => {
  it("is not reported; the next request's own progress is", async () => {
    const tokens: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (_input, init = {}) => {
      if ((init.method ?? "GET") !== "POST") return new Response(null, { status: 405 });
      const message = JSON.parse(String(init.body)) as JsonObject;
      const headers = { "mcp-session-id": "s-1" };
      if (message.method === "initialize")
        return Response.json(
          {
            jsonrpc: "2.0",
            id: message.id,
            result: { protocolVersion: "2025-06-18", capabilities: { tools: {} } },
          },
          { headers },
        );
      if (message.method === "tools/list")
        return Response.json(
          {
            jsonrpc: "2.0",
            id: message.id,
            result: { tools: [{ name: "t", inputSchema: { type: "object" } }] },
          },
          { headers },
        );
      if (message.method !== "tools/call") return new Response(null, { status: 202 });
      tokens.push(((message.params as JsonObject)._meta as JsonObject).progressToken);
      if (tokens.length === 1) return Response.json(textResult(message.id, "first"), { headers });
      // The second call's stream first carries a late report for the first call, then its own.
      const events = [progress(tokens[0], 99), progress(tokens[1], 1), textResult(message.id, "second")];
      return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""), {
        headers: { ...headers, "content-type": "text/event-stream" },
      });
    };
    const reports: number[] = [];
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch,
      listen: false,
      onProgress: (_tool, report) => reports.push(report.progress),
    });
    if (!connected.ok) throw connected.error;
    const tool = connected.value.tools[0];
    expect(JSON.stringify(await tool?.execute({}, toolContext()))).toContain("first");
    expect(JSON.stringify(await tool?.execute({}, toolContext()))).toContain("second");
    await connected.value.close();
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).not.toEqual(tokens[1]);
    expect(reports).toEqual([1]);
  });
});
