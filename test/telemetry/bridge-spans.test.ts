/**
 * One trace across a MessagePort: the main thread's span goes over as a W3C `traceparent` (the run's
 * `traceParent` option), and the served session's `invoke_agent` span, in the worker, is its child. A
 * real MessageChannel, so every message is structured-cloned as between threads.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { connectSession, serveSession } from "../../src/bridge/index.ts";
import { defineTool } from "../../src/index.ts";
import { contextFromTraceparent, traceparentOf } from "../../src/telemetry/trace-context.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";
import { memoryTracer } from "./in-memory-tracer.ts";

const { exporter, tracer } = memoryTracer();

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
  exporter.reset();
});

const lookup = defineTool({
  name: "lookup",
  description: "Looks up",
  inputSchema: { type: "object" },
  execute: () => "found",
});

it("the worker's run joins the main thread's trace, its tool and turns under it", async () => {
  const { port1: workerSide, port2: mainSide } = new MessageChannel();
  ports.push(workerSide, mainSide);
  const model = createScriptedModel({ script: [calls(["lookup", {}]), says("done")] });
  const server = serveSession(workerSide, {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    tools: [lookup],
    telemetry: { tracer },
  });
  const session = okValue(await connectSession(mainSide));
  const click = tracer.startSpan("click");
  const result = await session.chat("look it up", { traceParent: trace.setSpan(ROOT_CONTEXT, click) });
  click.end();
  expect(result.ok).toBe(true);
  const spans = exporter.getFinishedSpans();
  const run = spans.find((span) => span.name === "invoke_agent");
  expect(run?.spanContext().traceId).toBe(click.spanContext().traceId);
  expect(run?.parentSpanContext?.spanId).toBe(click.spanContext().spanId);
  expect(run?.parentSpanContext?.isRemote).toBe(true);
  const children = spans.filter((span) => span.parentSpanContext?.spanId === run?.spanContext().spanId);
  expect(children.map((span) => span.name).sort()).toEqual([
    "chat claude-sonnet-5-5",
    "chat claude-sonnet-5-5",
    "execute_tool lookup",
  ]);
  await session.close();
  await server.closed;
});

it("traceparent: written from a context, read back into one; malformed or all-zero ids are refused", () => {
  const span = tracer.startSpan("x");
  const header = traceparentOf(trace.setSpan(ROOT_CONTEXT, span));
  expect(header).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  const back = contextFromTraceparent(header ?? "");
  const { traceId, spanId, traceFlags } = span.spanContext();
  expect(trace.getSpanContext(back as never)).toEqual({ traceId, spanId, traceFlags, isRemote: true });
  expect(traceparentOf(undefined)).toBeUndefined();
  expect(traceparentOf(ROOT_CONTEXT)).toBeUndefined();
  for (const bad of [
    "",
    "01-" + "a".repeat(32) + "-" + "b".repeat(16) + "-01",
    `00-${"0".repeat(32)}-${"b".repeat(16)}-01`,
    `00-${"a".repeat(32)}-${"0".repeat(16)}-01`,
    "00-xyz",
  ]) {
    expect(contextFromTraceparent(bad)).toBeUndefined();
  }
  span.end();
});
