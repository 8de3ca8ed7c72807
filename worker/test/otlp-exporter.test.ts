/**
 * The fetch-based OTLP/HTTP JSON exporter, inside workerd: spans made by `@opentelemetry/sdk-trace-base`
 * encoded as OTLP/JSON asks (resource → scope → spans, hex ids, nanosecond strings, typed attribute
 * values, kinds and statuses, events, links), posted to `<endpoint>/v1/traces` with the configured
 * headers, and failures reported as a failed export, never thrown; and the span processor that holds
 * a run's spans until it is flushed.
 */
import { type Context, context, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ExportResult,
  encodeSpans,
  hrTimeToNanos,
  OtlpHttpJsonExporter,
  type OtlpKeyValue,
  parseOtlpHeaders,
  tracesUrl,
} from "../otlp-exporter.ts";
import { flushTelemetry, RunSpanProcessor, SERVICE_NAME, workerTelemetry } from "../telemetry.ts";

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

/** A root span and a failed client child, ended (an SDK span is its own ReadableSpan once ended). */
function recordTree(): { root: ReadableSpan; child: ReadableSpan } {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "otlp-test" }),
  });
  const tracer = provider.getTracer("wisp-test", "1.2.3");
  const root = tracer.startSpan("invoke_agent demo");
  const child = tracer.startSpan(
    "chat demo-model",
    { kind: SpanKind.CLIENT },
    trace.setSpan(context.active(), root),
  );
  child.setStatus({ code: SpanStatusCode.ERROR, message: "overloaded" });
  child.end();
  root.end();
  return { root: root as unknown as ReadableSpan, child: child as unknown as ReadableSpan };
}

function attributeValue(attributes: OtlpKeyValue[], key: string): unknown {
  return attributes.find((attribute) => attribute.key === key)?.value;
}

describe("encodeSpans", () => {
  it("encodes spans of sdk-trace-base as OTLP JSON: resource, scope, hex ids, nanosecond strings, typed values", async () => {
    const memory = new InMemorySpanExporter();
    const processor = new RunSpanProcessor(memory);
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "otlp-test" }),
      spanProcessors: [processor],
    });
    const tracer = provider.getTracer("wisp-test", "1.2.3");
    const root = tracer.startSpan("invoke_agent demo", {
      attributes: {
        "gen_ai.usage.input_tokens": 42,
        ratio: 0.5,
        big: 2 ** 60,
        streamed: true,
        "gen_ai.response.finish_reasons": ["stop", "tool_use"],
        sizes: [1, 2.5],
        flags: [true, false],
      },
    });
    const linked = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 };
    const child = tracer.startSpan(
      "chat demo-model",
      { kind: SpanKind.CLIENT, links: [{ context: linked, attributes: { why: "retry" } }] },
      trace.setSpan(context.active(), root),
    );
    child.addEvent("gen_ai.retry", { attempt: 1 }, [1_700_000_000, 5]);
    child.setStatus({ code: SpanStatusCode.ERROR, message: "overloaded" });
    child.end();
    root.setStatus({ code: SpanStatusCode.OK });
    root.end();
    // Held until the flush, then exported in one batch.
    expect(memory.getFinishedSpans()).toHaveLength(0);
    await processor.forceFlush();
    const spans = memory.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(["chat demo-model", "invoke_agent demo"]);

    const request = encodeSpans(spans);
    expect(request.resourceSpans).toHaveLength(1);
    const [resourceSpans] = request.resourceSpans;
    expect(resourceSpans!.resource.attributes).toContainEqual({
      key: "service.name",
      value: { stringValue: "otlp-test" },
    });
    expect(resourceSpans!.scopeSpans).toHaveLength(1);
    const [scopeSpans] = resourceSpans!.scopeSpans;
    expect(scopeSpans!.scope).toEqual({ name: "wisp-test", version: "1.2.3" });
    const [chat, run] = scopeSpans!.spans;
    const rootContext = spans[1]!.spanContext();
    const childContext = spans[0]!.spanContext();

    expect(run).toMatchObject({
      traceId: rootContext.traceId,
      spanId: rootContext.spanId,
      name: "invoke_agent demo",
      kind: 1, // SPAN_KIND_INTERNAL
      status: { code: 1 },
      flags: 0x101, // sampled, parent not remote
      droppedAttributesCount: 0,
      events: [],
      links: [],
    });
    expect(run).not.toHaveProperty("parentSpanId");
    expect(run!.traceId).toMatch(HEX32);
    expect(run!.spanId).toMatch(HEX16);
    expect(run!.startTimeUnixNano).toBe(hrTimeToNanos(spans[1]!.startTime));
    expect(run!.endTimeUnixNano).toBe(hrTimeToNanos(spans[1]!.endTime));
    expect(run!.startTimeUnixNano).toMatch(/^\d{19}$/);
    expect(BigInt(run!.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(run!.startTimeUnixNano));
    // Within a minute of now: epoch nanoseconds, not nanoseconds since the isolate started.
    expect(Number(BigInt(run!.startTimeUnixNano) / 1_000_000n)).toBeGreaterThan(Date.now() - 60_000);
    expect(Number(BigInt(run!.startTimeUnixNano) / 1_000_000n)).toBeLessThanOrEqual(Date.now() + 1);

    expect(run!.attributes).toEqual([
      { key: "gen_ai.usage.input_tokens", value: { intValue: "42" } },
      { key: "ratio", value: { doubleValue: 0.5 } },
      { key: "big", value: { doubleValue: 2 ** 60 } },
      { key: "streamed", value: { boolValue: true } },
      {
        key: "gen_ai.response.finish_reasons",
        value: { arrayValue: { values: [{ stringValue: "stop" }, { stringValue: "tool_use" }] } },
      },
      { key: "sizes", value: { arrayValue: { values: [{ intValue: "1" }, { doubleValue: 2.5 }] } } },
      { key: "flags", value: { arrayValue: { values: [{ boolValue: true }, { boolValue: false }] } } },
    ]);

    expect(chat).toMatchObject({
      traceId: rootContext.traceId,
      spanId: childContext.spanId,
      parentSpanId: rootContext.spanId,
      name: "chat demo-model",
      kind: 3, // SPAN_KIND_CLIENT
      status: { code: 2, message: "overloaded" },
      events: [
        {
          name: "gen_ai.retry",
          timeUnixNano: "1700000000000000005",
          attributes: [{ key: "attempt", value: { intValue: "1" } }],
          droppedAttributesCount: 0,
        },
      ],
      links: [
        {
          traceId: linked.traceId,
          spanId: linked.spanId,
          attributes: [{ key: "why", value: { stringValue: "retry" } }],
          droppedAttributesCount: 0,
          flags: 0x101,
        },
      ],
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
    // What goes on the wire is plain JSON.
    expect(JSON.parse(JSON.stringify(request))).toEqual(request);
  });

  it("groups spans by resource and then by scope, and marks a remote parent", () => {
    const memory = new InMemorySpanExporter();
    const make = (service: string) =>
      new BasicTracerProvider({
        resource: resourceFromAttributes({ "service.name": service }),
        spanProcessors: [new RunSpanProcessor(memory)],
      });
    const one = make("one");
    const two = make("two");
    const remoteParent = trace.setSpanContext(context.active(), {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const spans: ReadableSpan[] = [];
    const capture = (provider: BasicTracerProvider, scope: string, name: string, parent?: Context) => {
      const span = provider.getTracer(scope).startSpan(name, {}, parent);
      span.end();
      spans.push(span as unknown as ReadableSpan);
    };
    capture(one, "a", "1a", remoteParent);
    capture(one, "b", "1b");
    capture(two, "a", "2a");
    capture(one, "a", "1a again");
    const request = encodeSpans(spans);
    const shape = request.resourceSpans.map((resource) => ({
      service: attributeValue(resource.resource.attributes, "service.name"),
      scopes: resource.scopeSpans.map((scope) => [scope.scope.name, scope.spans.map((span) => span.name)]),
    }));
    expect(shape).toEqual([
      {
        service: { stringValue: "one" },
        scopes: [
          ["a", ["1a", "1a again"]],
          ["b", ["1b"]],
        ],
      },
      { service: { stringValue: "two" }, scopes: [["a", ["2a"]]] },
    ]);
    const remoteChild = request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect(remoteChild.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(remoteChild.parentSpanId).toBe("00f067aa0ba902b7");
    expect(remoteChild.flags).toBe(0x301); // sampled, parent known to be remote
    expect(remoteChild.kind).toBe(1);
  });

  it("writes HrTime as unix nanoseconds", () => {
    expect(hrTimeToNanos([0, 0])).toBe("0");
    expect(hrTimeToNanos([1, 1])).toBe("1000000001");
    expect(hrTimeToNanos([1_800_000_000, 999_999_999])).toBe("1800000000999999999");
  });
});

describe("OTEL_EXPORTER_OTLP_* parsing", () => {
  it("appends /v1/traces to the endpoint", () => {
    expect(tracesUrl("http://127.0.0.1:4318")).toBe("http://127.0.0.1:4318/v1/traces");
    expect(tracesUrl("https://otel.example/otlp/")).toBe("https://otel.example/otlp/v1/traces");
  });

  it("reads headers as comma-separated key=value pairs, percent-decoded", () => {
    expect(parseOtlpHeaders("api-key=abc, authorization=Bearer%20x%3Dy ,empty=,=skipped,bad,x=%zz")).toEqual({
      "api-key": "abc",
      authorization: "Bearer x=y",
      empty: "",
      x: "%zz",
    });
    expect(parseOtlpHeaders(undefined)).toEqual({});
  });
});

describe("OtlpHttpJsonExporter", () => {
  function exportWith(fetcher: typeof fetch, headers?: Record<string, string>): Promise<ExportResult> {
    const { root, child } = recordTree();
    const exporter = new OtlpHttpJsonExporter({
      endpoint: "http://collector.test:4318/",
      headers,
      fetch: fetcher,
    });
    return new Promise((resolve) => exporter.export([child, root], resolve));
  }

  it("POSTs the JSON request to <endpoint>/v1/traces with the configured headers", async () => {
    const requests: Request[] = [];
    const result = await exportWith(
      async (input, init) => {
        requests.push(new Request(input, init));
        return Response.json({});
      },
      { "x-api-key": "secret" },
    );
    expect(result).toEqual({ code: 0 });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("http://collector.test:4318/v1/traces");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(request!.headers.get("x-api-key")).toBe("secret");
    const body = (await request!.json()) as ReturnType<typeof encodeSpans>;
    expect(body.resourceSpans[0]!.scopeSpans[0]!.spans.map((span) => span.name)).toEqual([
      "chat demo-model",
      "invoke_agent demo",
    ]);
  });

  it("reports a failure status, a network error and a timeout as a failed export, without throwing", async () => {
    const refused = await exportWith(async () => new Response("nope", { status: 400 }));
    expect(refused.code).toBe(1);
    expect(refused.error?.message).toContain("HTTP 400: nope");

    const offline = await exportWith(async () => {
      throw new TypeError("Network connection lost.");
    });
    expect(offline.code).toBe(1);
    expect(offline.error?.message).toContain("Network connection lost.");

    const { root } = recordTree();
    const slow = new OtlpHttpJsonExporter({
      endpoint: "http://collector.test",
      timeoutMillis: 10,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        ),
    });
    const timedOut = await new Promise<ExportResult>((resolve) => slow.export([root], resolve));
    expect(timedOut.code).toBe(1);
    expect(timedOut.error?.message).toMatch(/TimeoutError/);
  });

  it("logs spans the receiver rejected (partialSuccess) and counts the export as done", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await exportWith(async () =>
      Response.json({ partialSuccess: { rejectedSpans: "1", errorMessage: "too old" } }),
    );
    expect(result).toEqual({ code: 0 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("rejected 1 span(s): too old"));
    warn.mockRestore();
  });

  it("after shutdown, refuses to export", async () => {
    const { root } = recordTree();
    const exporter = new OtlpHttpJsonExporter({
      endpoint: "http://collector.test",
      fetch: async () => Response.json({}),
    });
    await exporter.shutdown();
    const result = await new Promise<ExportResult>((resolve) => exporter.export([root], resolve));
    expect(result.code).toBe(1);
  });
});

describe("the Worker's telemetry", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is off without OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    expect(workerTelemetry({} as never)).toBeUndefined();
    await expect(flushTelemetry({} as never)).resolves.toBeUndefined();
  });

  it("has one tracer per configuration, service.name wisp-demo, and a flush that logs a failed export and never rejects", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const sent: Request[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      sent.push(new Request(input, init));
      return new Response("unavailable", { status: 503 });
    });
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector.test:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k%201",
    } as never;
    const telemetry = workerTelemetry(env);
    expect(telemetry).toBeDefined();
    expect(workerTelemetry(env)).toBe(telemetry);
    const span = telemetry!.tracer.startSpan("invoke_agent demo");
    span.end();
    expect((span as unknown as ReadableSpan).resource.attributes["service.name"]).toBe(SERVICE_NAME);
    await expect(flushTelemetry(env)).resolves.toBeUndefined();
    expect(sent.map((request) => [request.url, request.headers.get("x-api-key")])).toEqual([
      ["http://collector.test:4318/v1/traces", "k 1"],
    ]);
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/^OpenTelemetry: 1 span\(s\) not exported: .*HTTP 503: unavailable$/),
    );
  });

  it("keeps only sampled spans, drops past its bound, and exports in batches of 512", async () => {
    const batches: number[] = [];
    const processor = new RunSpanProcessor(
      {
        export: (spans, done) => {
          batches.push(spans.length);
          done({ code: 0 });
        },
        shutdown: async () => {},
      },
      600,
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    const tracer = provider.getTracer("t");
    for (let i = 0; i < 601; i++) tracer.startSpan(`s${i}`).end();
    const unsampled = trace.setSpanContext(context.active(), {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    tracer.startSpan("not sampled", {}, unsampled).end();
    await processor.forceFlush();
    expect(batches).toEqual([512, 88]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("1 span(s) dropped"));
    await processor.forceFlush();
    expect(batches).toEqual([512, 88]);
  });
});
