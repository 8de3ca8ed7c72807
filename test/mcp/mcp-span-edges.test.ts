/**
 * The spans of MCP requests, their names and attributes per method: `tools/call` (the tool's name, an
 * execute_tool operation), `prompts/get` (the prompt's name), `resources/read` (the resource's URI), and
 * the server's host as `server.address`. Against a server in a fetch function, on an in-memory tracer.
 */
import { describe, expect, it } from "vitest";
import { connectMcp } from "../../src/mcp/index.ts";
import { okValue } from "../support/results.ts";
import { memoryTracer } from "../telemetry/in-memory-tracer.ts";
import { callContext } from "./support/extended-server.ts";

const { exporter, tracer } = memoryTracer();

const fetch: typeof globalThis.fetch = async (_input, init) => {
  const message = JSON.parse(String(init?.body)) as { id?: number; method: string };
  if (message.id === undefined) return new Response(null, { status: 202 });
  const results: Record<string, object> = {
    initialize: {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {}, prompts: {}, resources: {} },
      serverInfo: { name: "spans" },
    },
    "tools/list": { tools: [{ name: "span_tool", inputSchema: { type: "object" } }] },
    "tools/call": { content: [{ type: "text", text: "done" }] },
    "prompts/get": { messages: [{ role: "user", content: { type: "text", text: "hi" } }] },
    "resources/read": { contents: [{ uri: "notes://span-note", text: "note" }] },
  };
  return Response.json({ jsonrpc: "2.0", id: message.id, result: results[message.method] ?? {} });
};

/** The attributes of the one finished span named `name`. */
function attributesOf(name: string): Record<string, unknown> {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(spans.map((span) => span.name)).toEqual([name]);
  return { ...spans[0]?.attributes };
}

describe("MCP request spans", () => {
  it("name the tool, the prompt and the resource, with the attributes of each method only", async () => {
    exporter.reset();
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.spans.test:8123/mcp",
        fetch,
        listen: false,
        telemetry: { tracer },
      }),
    );
    try {
      expect(await connection.tools[0]?.execute({}, callContext())).toBe("done");
      okValue(await connection.getPrompt("span_prompt"));
      okValue(await connection.readResource("notes://span-note"));
    } finally {
      await connection.close({ endSession: false });
    }

    const call = attributesOf("tools/call span_tool");
    expect(call).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "span_tool",
      "gen_ai.operation.name": "execute_tool",
      "server.address": "mcp.spans.test",
    });
    expect(call).not.toHaveProperty("mcp.resource.uri");

    const prompt = attributesOf("prompts/get span_prompt");
    expect(prompt).toMatchObject({ "mcp.method.name": "prompts/get", "server.address": "mcp.spans.test" });
    expect(prompt).not.toHaveProperty("gen_ai.tool.name");
    expect(prompt).not.toHaveProperty("mcp.resource.uri");

    const read = attributesOf("resources/read notes://span-note");
    expect(read).toMatchObject({
      "mcp.method.name": "resources/read",
      "mcp.resource.uri": "notes://span-note",
      "server.address": "mcp.spans.test",
    });
    expect(read).not.toHaveProperty("gen_ai.tool.name");
    expect(read).not.toHaveProperty("gen_ai.operation.name");
    expect(Object.keys(read).sort()).toEqual(
      ["mcp.method.name", "mcp.protocol.version", "mcp.resource.uri", "server.address"].sort(),
    );
  });
});
