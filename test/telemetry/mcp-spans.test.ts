/**
 * MCP requests in a trace: connectMcp with `telemetry` makes a span per request (MCP semantic
 * conventions), and a traced run that calls an MCP tool puts the `tools/call` span under the call's
 * `execute_tool` span: one trace, parents passed explicitly. Against the official MCP SDK's server on
 * loopback.
 */

import { afterAll, beforeAll, expect, it } from "vitest";
import { runAgent } from "../../src/index.ts";
import { connectMcp } from "../../src/mcp/index.ts";
import { startOfficialServer } from "../mcp/support/official-server.mjs";
import { calls, says, scripted } from "../support/agent.ts";
import { memoryTracer } from "./in-memory-tracer.ts";

const { exporter, tracer } = memoryTracer();

let server: Awaited<ReturnType<typeof startOfficialServer>>;

beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

it("a run calling an MCP tool: tools/call add is a child of execute_tool mcp_add, in the run's trace", async () => {
  const connected = await connectMcp({
    url: server.url,
    prefix: "mcp_",
    listen: false,
    telemetry: { tracer },
  });
  if (!connected.ok) throw connected.error;
  const connection = connected.value;
  const handshake = exporter.getFinishedSpans().map((span) => span.name);
  expect(handshake).toContain("initialize");
  expect(handshake).toContain("tools/list");
  exporter.reset();
  const { options } = scripted([calls(["mcp_add", { a: 2, b: 3 }]), says("5")]);
  const result = await runAgent(options({ tools: connection.tools, telemetry: { tracer } }));
  expect(result.ok && result.value.toolCalls[0]?.result.output).toBe("5");
  const spans = exporter.getFinishedSpans();
  const tool = spans.find((span) => span.name === "execute_tool mcp_add");
  const call = spans.find((span) => span.name === "tools/call add");
  const run = spans.find((span) => span.name === "invoke_agent");
  expect(call?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
  expect(tool?.parentSpanContext?.spanId).toBe(run?.spanContext().spanId);
  expect(call?.spanContext().traceId).toBe(run?.spanContext().traceId);
  expect(call?.kind).toBe(2);
  expect(call?.attributes).toMatchObject({
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "add",
    "mcp.session.id": expect.any(String),
    "mcp.protocol.version": expect.any(String),
  });
  await connection.close();
});

it("a failed request is recorded with error.type and status ERROR", async () => {
  const connected = await connectMcp({ url: server.url, listen: false, telemetry: { tracer } });
  if (!connected.ok) throw connected.error;
  exporter.reset();
  const read = await connected.value.readResource("wisp://no-such-resource");
  expect(read.ok).toBe(false);
  const span = exporter.getFinishedSpans().find((found) => found.name.startsWith("resources/read"));
  expect(span?.attributes["error.type"]).toEqual(expect.any(String));
  expect(span?.status.code).toBe(2);
  await connected.value.close();
});
