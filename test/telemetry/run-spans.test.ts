/**
 * Traces of runs, read with the OpenTelemetry SDK's own in-memory exporter: the span tree, names and
 * GenAI attributes of a tool-using run on each of the four wire APIs, a retried 529, an abort, an
 * approval pause and its resume (who decided), content only when asked, an explicit parent context,
 * a standalone streamTurn, and the GenAI metrics with a meter.
 */
import { context, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from "@opentelemetry/semantic-conventions/incubating";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgentSession,
  defineTool,
  runAgent,
  runAgentStream,
  streamTurn,
  type Telemetry,
  uncheckedModel,
} from "../../src/index.ts";
import { connectMcp } from "../../src/mcp/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { isSummaryRequest, read } from "../support/compaction.ts";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("wisp-test");

afterEach(() => exporter.reset());

const calculator = defineTool({
  name: "calculator",
  description: "Adds",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

function spans(): ReadableSpan[] {
  return exporter.getFinishedSpans();
}

function named(prefix: string): ReadableSpan[] {
  return spans().filter((span) => span.name.startsWith(prefix));
}

function only(prefix: string): ReadableSpan {
  const found = named(prefix);
  expect(found.map((span) => span.name)).toHaveLength(1);
  return found[0] as ReadableSpan;
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

async function toolRun(model: string, extra: Partial<Telemetry> = {}) {
  const scripted = createScriptedModel({ script: [calls(["calculator", { a: 2, b: 3 }]), says("It is 5.")] });
  return runAgent({
    model: uncheckedModel(model),
    apiKey: "k",
    fetch: scripted.fetch,
    prompt: "What is 2 + 3?",
    tools: [calculator],
    maxTokens: 500,
    temperature: 0.2,
    retry: { maxRetries: 0 },
    telemetry: { tracer, ...extra },
  });
}

describe("a tool-using run", () => {
  it.each([
    ["anthropic/claude-sonnet-4-5", "anthropic"],
    ["openai/gpt-4o", "openai"],
    ["openai-responses/gpt-5", "openai"],
    ["google/gemini-2.5-flash", "gcp.gemini"],
  ])(
    "%s: invoke_agent over two chat spans and one execute_tool, one trace, GenAI attributes",
    async (model, name) => {
      const result = await toolRun(model);
      expect(result.ok).toBe(true);
      const run = only("invoke_agent");
      const chats = named("chat ");
      const tool = only("execute_tool calculator");
      expect(chats).toHaveLength(2);
      const traceId = run.spanContext().traceId;
      for (const span of [...chats, tool]) {
        expect(span.spanContext().traceId).toBe(traceId);
        expect(parentOf(span)).toBe(run.spanContext().spanId);
      }
      expect(parentOf(run)).toBeUndefined();
      const modelId = model.slice(model.indexOf("/") + 1);
      expect(run.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: "invoke_agent",
        [ATTR_GEN_AI_PROVIDER_NAME]: name,
        [ATTR_GEN_AI_REQUEST_MODEL]: modelId,
        "gen_ai.conversation.id": result.ok ? result.value.sessionId : "",
        [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: ["complete"],
        "wisp.turns": 2,
      });
      const [first, second] = chats.sort(
        (a, b) => Number(a.attributes["wisp.turn"]) - Number(b.attributes["wisp.turn"]),
      );
      expect(first?.name).toBe(`chat ${modelId}`);
      expect(first?.kind).toBe(2);
      expect(first?.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: "chat",
        [ATTR_GEN_AI_PROVIDER_NAME]: name,
        [ATTR_GEN_AI_REQUEST_MODEL]: modelId,
        "gen_ai.request.max_tokens": 500,
        "gen_ai.request.temperature": 0.2,
        "gen_ai.response.model": modelId,
      });
      expect(first?.attributes[ATTR_GEN_AI_RESPONSE_ID]).toEqual(expect.any(String));
      expect(first?.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]).toBeGreaterThan(0);
      expect(first?.attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]).toBeGreaterThan(0);
      expect(second?.attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS]).toHaveLength(1);
      const runInput = Number(run.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]);
      expect(runInput).toBe(
        Number(first?.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]) +
          Number(second?.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]),
      );
      expect(tool.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool",
        [ATTR_GEN_AI_TOOL_NAME]: "calculator",
        [ATTR_GEN_AI_TOOL_CALL_ID]: expect.any(String),
        "gen_ai.tool.type": "function",
      });
      // No content unless asked.
      for (const span of spans()) {
        expect(Object.keys(span.attributes).filter((key) => /messages|arguments|result/.test(key))).toEqual(
          [],
        );
      }
    },
  );

  it("records prompts, answers, tool arguments and results only with recordContent", async () => {
    await toolRun("anthropic/claude-sonnet-4-5", { recordContent: true });
    expect(JSON.parse(String(only("invoke_agent").attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "What is 2 + 3?" }] },
    ]);
    const tool = only("execute_tool");
    expect(JSON.parse(String(tool.attributes["gen_ai.tool.call.arguments"]))).toEqual({ a: 2, b: 3 });
    expect(JSON.parse(String(tool.attributes["gen_ai.tool.call.result"]))).toBe("5");
    const outputs = named("chat ").map((span) =>
      JSON.parse(String(span.attributes["gen_ai.output.messages"])),
    );
    expect(outputs.flat().flatMap((message) => message.parts)).toContainEqual({
      type: "text",
      content: "It is 5.",
    });
  });

  it("names an OpenAI-compatible server's host as server.address on the chat spans", async () => {
    const scripted = createScriptedModel({ script: [says("hi")] });
    await runAgent({
      model: "openai/llama-3.3",
      apiKey: "k",
      baseURL: "http://llm.internal.test:11434/v1",
      fetch: scripted.fetch,
      prompt: "hi",
      prices: {},
      telemetry: { tracer },
    });
    expect(only("chat ").attributes["server.address"]).toBe("llm.internal.test");
    exporter.reset();
    await toolRun("anthropic/claude-sonnet-4-5");
    expect(named("chat ").map((span) => span.attributes["server.address"])).toEqual([undefined, undefined]);
  });

  it("starts under the caller's context when given one (no context manager, no AsyncLocalStorage)", async () => {
    const request = tracer.startSpan("request");
    await toolRun("anthropic/claude-sonnet-4-5", { parent: trace.setSpan(context.active(), request) });
    request.end();
    const run = only("invoke_agent");
    expect(parentOf(run)).toBe(only("request").spanContext().spanId);
    expect(run.spanContext().traceId).toBe(only("request").spanContext().traceId);
  });
});

describe("failures", () => {
  it("a retried 529: one chat span with a retry event; the run succeeds", async () => {
    const script: ScriptedTurn[] = [{ content: [], fault: { type: "http", status: 529 } }, says("fine")];
    const scripted = createScriptedModel({ script });
    const result = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: scripted.fetch,
      prompt: "hi",
      retry: { maxRetries: 2, initialDelayMs: 1 },
      telemetry: { tracer },
    });
    expect(result.ok).toBe(true);
    const chat = only("chat ");
    expect(
      chat.events.map((event) => [
        event.name,
        event.attributes?.["error.type"],
        event.attributes?.["wisp.retry.attempt"],
      ]),
    ).toEqual([["wisp.retry", "OVERLOADED", 1]]);
    expect(chat.status.code).toBe(0);
  });

  it("a failed run: error.type is Wisp's code on the chat and run spans, status ERROR", async () => {
    const scripted = createScriptedModel({ script: [{ content: [], fault: { type: "http", status: 401 } }] });
    const result = await runAgent({
      model: "openai/gpt-4o",
      apiKey: "k",
      fetch: scripted.fetch,
      prompt: "hi",
      retry: { maxRetries: 0 },
      telemetry: { tracer },
    });
    expect(!result.ok && result.error.code).toBe("AUTH");
    for (const span of [only("chat "), only("invoke_agent")]) {
      expect(span.attributes["error.type"]).toBe("AUTH");
      expect(span.status.code).toBe(2);
    }
  });

  it("an abort mid-stream ends every span it opened, with error.type ABORTED", async () => {
    const scripted = createScriptedModel({
      script: [{ content: [{ type: "text", text: "a b c d e f" }], delayMs: 20 }],
    });
    const run = runAgentStream({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: scripted.fetch,
      prompt: "hi",
      telemetry: { tracer },
    });
    for await (const event of run) if (event.type === "text-delta") run.abort();
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(only("chat ").attributes["error.type"]).toBe("ABORTED");
    expect(only("invoke_agent").attributes["error.type"]).toBe("ABORTED");
    expect(spans().every((span) => span.ended)).toBe(true);
  });
});

describe("approvals", () => {
  it("a pause is an event on the run's span; the resume is a run of its own with who decided", async () => {
    const send = defineTool({
      name: "send",
      description: "Sends",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: ({ to }) => `sent to ${to}`,
    });
    const scripted = createScriptedModel({ script: [calls(["send", { to: "ada" }]), says("Sent.")] });
    const created = await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: scripted.fetch,
      tools: [send],
      telemetry: { tracer },
    });
    if (!created.ok) throw created.error;
    const session = created.value;
    const paused = await session.chat("send it");
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    const first = only("invoke_agent");
    const requested = first.events.find((event) => event.name === "wisp.approval.requested");
    expect(requested?.attributes).toMatchObject({ "gen_ai.tool.name": "send" });
    expect(first.attributes).toMatchObject({
      "gen_ai.response.finish_reasons": ["approval"],
      "wisp.approval.pending": 1,
    });
    expect(first.attributes).not.toHaveProperty("wisp.resume");
    const toolCallId = String(requested?.attributes?.["gen_ai.tool.call.id"]);
    exporter.reset();
    const resumed = await session.resume([{ toolCallId, approved: true, decidedBy: "ada@example.com" }]);
    expect(resumed.ok).toBe(true);
    const second = only("invoke_agent");
    expect(second.attributes["wisp.resume"]).toBe(true);
    expect(second.events.find((event) => event.name === "wisp.approval.decided")?.attributes).toEqual({
      "gen_ai.tool.call.id": toolCallId,
      "wisp.approval.approved": true,
      "wisp.approval.decided_by": "ada@example.com",
    });
    expect(parentOf(only("execute_tool send"))).toBe(second.spanContext().spanId);
  });
});

describe("compaction", () => {
  it("traces the summary's model call as a chat span of the run, beside the compaction event", async () => {
    let pages = 0;
    const scripted = createScriptedModel({
      respond: (request): ScriptedTurn => {
        if (isSummaryRequest(request))
          return { content: [{ type: "text", text: "SUMMARY" }], usage: { input: 3000, output: 40 } };
        pages++;
        return pages > 3
          ? { content: [{ type: "text", text: "Done." }] }
          : { content: [{ type: "tool_call", name: "read", args: { page: pages } }] };
      },
    });
    const result = await runAgent({
      model: uncheckedModel("anthropic/claude-sonnet-4-5"),
      apiKey: "k",
      fetch: scripted.fetch,
      prompt: "Read the pages.",
      tools: [read],
      compaction: { maxTokens: 500, keepTurns: 1 },
      telemetry: { tracer },
    });
    expect(result.ok).toBe(true);
    const run = only("invoke_agent");
    const compactions = run.events.filter((event) => event.name === "wisp.compaction");
    expect(compactions.length).toBeGreaterThan(0);
    // One chat span per request the model got: the run's turns and each summary, all children of the run.
    const chats = named("chat ");
    expect(chats).toHaveLength(scripted.requests.length);
    for (const chat of chats) expect(parentOf(chat)).toBe(run.spanContext().spanId);
    // The summaries' spans carry their tokens (3,000 in each): where the tokens went is in the trace.
    const summaries = chats.filter((chat) => chat.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS] === 3000);
    expect(summaries).toHaveLength(compactions.length);
  });
});

describe("streamTurn", () => {
  it("makes one chat span of its own, under the parent given", async () => {
    const scripted = createScriptedModel({ script: [says("hello")] });
    const parent = tracer.startSpan("caller");
    const turn = streamTurn(
      { messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 0 }] },
      {
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: scripted.fetch,
        telemetry: { tracer, parent: trace.setSpan(context.active(), parent) },
      },
    );
    for await (const _ of turn) {
      // drain
    }
    parent.end();
    expect(parentOf(only("chat "))).toBe(parent.spanContext().spanId);
    expect(only("chat ").attributes[ATTR_GEN_AI_OPERATION_NAME]).toBe("chat");
  });
});

describe("metrics", () => {
  it("with a meter: gen_ai.client.operation.duration and gen_ai.client.token.usage per model turn", async () => {
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 60_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    await toolRun("anthropic/claude-sonnet-4-5", { meter: meterProvider.getMeter("wisp-test") });
    await reader.forceFlush();
    const found = metrics
      .getMetrics()
      .flatMap((batch) => batch.scopeMetrics.flatMap((scope) => scope.metrics));
    const duration = found.find(
      (metric) => metric.descriptor.name === METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
    );
    const tokens = found.find((metric) => metric.descriptor.name === METRIC_GEN_AI_CLIENT_TOKEN_USAGE);
    expect(duration?.descriptor.unit).toBe("s");
    expect(duration?.dataPoints.map((point) => (point.value as { count: number }).count)).toEqual([2]);
    expect(tokens?.dataPoints.map((point) => point.attributes["gen_ai.token.type"]).sort()).toEqual([
      "input",
      "output",
    ]);
    await meterProvider.shutdown();
  });
});

describe("the option", () => {
  it("refuses what is not a tracer, with the path", async () => {
    const result = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      prompt: "hi",
      telemetry: { tracer: {} as never },
    });
    expect(!result.ok && result.error).toMatchObject({ code: "CONFIG_INVALID", path: "telemetry.tracer" });
    const turn = streamTurn(
      { messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 0 }] },
      { model: "anthropic/claude-sonnet-4-5", apiKey: "k", telemetry: { tracer, meter: {} as never } },
    );
    const message = await turn.message;
    expect(message.error).toMatchObject({ code: "CONFIG_INVALID", path: "telemetry.meter" });
    const connected = await connectMcp({
      url: "https://mcp.example.test/mcp",
      telemetry: { tracer, parent: {} as never },
    });
    expect(!connected.ok && connected.error).toMatchObject({
      code: "CONFIG_INVALID",
      path: "telemetry.parent",
    });
  });
});
