/**
 * The OTLP/HTTP JSON exporter beyond worker/test/otlp-exporter.test.ts: an endpoint with several
 * trailing slashes, trace state, resource and scope schema URLs, scopes told apart by version and
 * schema URL (an empty one being no version at all), undefined attribute values left out, an empty
 * batch that sends nothing, forceFlush and shutdown waiting for requests in flight, the shut-down
 * error, long and empty error bodies, the cause of a network failure, and which receiver answers
 * count as a partial success worth a warning.
 */
import { context, createTraceState, TraceFlags, trace } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ExportResult, encodeSpans, OtlpHttpJsonExporter, tracesUrl } from "../otlp-exporter.ts";

/** One ended span named `name` from a fresh provider (resource `service.name` edges-test). */
function endedSpan(name = "s"): ReadableSpan {
  const span = new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": "edges-test" }) })
    .getTracer("t")
    .startSpan(name);
  span.end();
  return span as unknown as ReadableSpan;
}

/** Exports `spans` with `fetcher` to http://collector.test and resolves with the export's result. */
function exportWith(fetcher: typeof fetch, spans: ReadableSpan[] = [endedSpan()]): Promise<ExportResult> {
  const exporter = new OtlpHttpJsonExporter({ endpoint: "http://collector.test", fetch: fetcher });
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe("encodeSpans, edges", () => {
  it("drops every trailing slash of the endpoint before /v1/traces", () => {
    expect(tracesUrl("http://collector.test:4318//")).toBe("http://collector.test:4318/v1/traces");
    expect(tracesUrl("https://otel.example/otlp///")).toBe("https://otel.example/otlp/v1/traces");
  });

  it("carries the trace state of a span and of a link", () => {
    const state = createTraceState("vendor=abc,other=1");
    const parent = trace.setSpanContext(context.active(), {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: state,
    });
    const linked = {
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: TraceFlags.SAMPLED,
      traceState: createTraceState("linked=yes"),
    };
    const span = new BasicTracerProvider()
      .getTracer("t")
      .startSpan("with state", { links: [{ context: linked }] }, parent);
    span.end();
    const [encoded] = encodeSpans([span as unknown as ReadableSpan]).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(encoded!.traceState).toBe(state.serialize());
    expect(encoded!.traceState).toContain("vendor=abc");
    expect(encoded!.links[0]!.traceState).toBe("linked=yes");
  });

  it("writes the schema URLs of the resource and of the instrumentation scope", () => {
    const resource = resourceFromAttributes(
      { "service.name": "schemas" },
      { schemaUrl: "https://opentelemetry.io/schemas/1.26.0" },
    );
    const span = new BasicTracerProvider({ resource })
      .getTracer("scoped", "2.0.0", { schemaUrl: "https://opentelemetry.io/schemas/1.24.0" })
      .startSpan("s");
    span.end();
    const [resourceSpans] = encodeSpans([span as unknown as ReadableSpan]).resourceSpans;
    expect(resourceSpans!.schemaUrl).toBe("https://opentelemetry.io/schemas/1.26.0");
    expect(resourceSpans!.scopeSpans[0]).toMatchObject({
      scope: { name: "scoped", version: "2.0.0" },
      schemaUrl: "https://opentelemetry.io/schemas/1.24.0",
    });
  });

  it("keeps scopes of one name apart by version and by schema URL", () => {
    const provider = new BasicTracerProvider();
    const spans = [
      provider.getTracer("lib", "1.0.0"),
      provider.getTracer("lib", "2.0.0"),
      provider.getTracer("lib", "2.0.0", { schemaUrl: "https://example.test/a" }),
      provider.getTracer("lib", "2.0.0", { schemaUrl: "https://example.test/b" }),
    ].map((tracer, i) => {
      const span = tracer.startSpan(`s${i}`);
      span.end();
      return span as unknown as ReadableSpan;
    });
    const scopes = encodeSpans(spans).resourceSpans[0]!.scopeSpans.map((scope) => ({
      ...scope.scope,
      schemaUrl: scope.schemaUrl,
      spans: scope.spans.map((span) => span.name),
    }));
    expect(scopes).toEqual([
      { name: "lib", version: "1.0.0", schemaUrl: undefined, spans: ["s0"] },
      { name: "lib", version: "2.0.0", schemaUrl: undefined, spans: ["s1"] },
      { name: "lib", version: "2.0.0", schemaUrl: "https://example.test/a", spans: ["s2"] },
      { name: "lib", version: "2.0.0", schemaUrl: "https://example.test/b", spans: ["s3"] },
    ]);
  });

  it("takes an empty version or schema URL as none: one scope on the wire, one group", () => {
    // Two providers on one resource: their tracers "t" and "t" with "" version and schema URL are one scope.
    const resource = resourceFromAttributes({ "service.name": "edges-test" });
    const spans = [
      new BasicTracerProvider({ resource }).getTracer("t"),
      new BasicTracerProvider({ resource }).getTracer("t", "", { schemaUrl: "" }),
    ].map((tracer, i) => {
      const span = tracer.startSpan(`s${i}`);
      span.end();
      return span as unknown as ReadableSpan;
    });
    expect(spans.map((span) => span.instrumentationScope)).toEqual([
      { name: "t", version: undefined, schemaUrl: undefined },
      { name: "t", version: "", schemaUrl: "" },
    ]);
    const { resourceSpans } = encodeSpans(spans);
    expect(resourceSpans).toHaveLength(1);
    expect(resourceSpans[0]!.scopeSpans).toEqual([
      {
        scope: { name: "t" },
        spans: [expect.objectContaining({ name: "s0" }), expect.objectContaining({ name: "s1" })],
      },
    ]);
  });

  it("leaves out an attribute whose value is undefined", () => {
    // The SDK's own spans drop such values; any other ReadableSpan may carry them (its type allows it).
    const span = Object.assign(Object.create(endedSpan()) as ReadableSpan, {
      attributes: { kept: "yes", gone: undefined },
    });
    const [encoded] = encodeSpans([span]).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(encoded!.attributes).toEqual([{ key: "kept", value: { stringValue: "yes" } }]);
  });
});

describe("OtlpHttpJsonExporter, edges", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("answers an empty batch with success and sends nothing", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => Response.json({}));
    await expect(exportWith(fetcher, [])).resolves.toEqual({ code: 0 });
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("forceFlush and shutdown wait for the requests in flight", async () => {
    const answers: Array<() => void> = [];
    const exporter = new OtlpHttpJsonExporter({
      endpoint: "http://collector.test",
      fetch: () =>
        new Promise<Response>((resolve) => {
          answers.push(() => resolve(Response.json({})));
        }),
    });
    const results: ExportResult[] = [];
    exporter.export([endedSpan("first")], (result) => results.push(result));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    const flushed = exporter.forceFlush().then(() => [...results]);
    answers[0]!();
    expect(await flushed).toEqual([{ code: 0 }]);

    exporter.export([endedSpan("second")], (result) => results.push(result));
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    const shut = exporter.shutdown().then(() => [...results]);
    answers[1]!();
    expect(await shut).toEqual([{ code: 0 }, { code: 0 }]);
  });

  it("says why an export after shutdown fails", async () => {
    const exporter = new OtlpHttpJsonExporter({
      endpoint: "http://collector.test",
      fetch: async () => Response.json({}),
    });
    await exporter.shutdown();
    const result = await new Promise<ExportResult>((resolve) => exporter.export([endedSpan()], resolve));
    expect(result.code).toBe(1);
    expect(result.error?.message).toBe("The OTLP exporter is shut down");
  });

  it("cuts an error body past 200 characters and marks the cut, keeps one of 200 whole", async () => {
    const long = "x".repeat(150) + "y".repeat(100);
    const cut = await exportWith(async () => new Response(long, { status: 413 }));
    expect(cut.code).toBe(1);
    expect(cut.error?.message).toBe(
      `OTLP export to http://collector.test/v1/traces got HTTP 413: ${long.slice(0, 200)}…`,
    );

    const exact = "z".repeat(200);
    const whole = await exportWith(async () => new Response(exact, { status: 400 }));
    expect(whole.error?.message).toBe(
      `OTLP export to http://collector.test/v1/traces got HTTP 400: ${exact}`,
    );
  });

  it("reports a failure status with an empty body as the status alone", async () => {
    const result = await exportWith(async () => new Response(null, { status: 502 }));
    expect(result.code).toBe(1);
    expect(result.error?.message).toBe("OTLP export to http://collector.test/v1/traces got HTTP 502");
  });

  it("keeps the network error as the cause of the failed export", async () => {
    const lost = new TypeError("Network connection lost.");
    const result = await exportWith(async () => {
      throw lost;
    });
    expect(result.code).toBe(1);
    expect(result.error?.cause).toBe(lost);
  });

  it("warns about nothing when the receiver accepts every span, whatever JSON it answers", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const body of [
      "{}",
      "null",
      '{"partialSuccess":{}}',
      '{"partialSuccess":{"rejectedSpans":"0"}}',
      "",
    ]) {
      await expect(exportWith(async () => new Response(body, { status: 200 }))).resolves.toEqual({ code: 0 });
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it("warns about rejected spans without a message, and about a message without rejected spans", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const onlyCount = await exportWith(async () => Response.json({ partialSuccess: { rejectedSpans: 2 } }));
    const onlyMessage = await exportWith(async () =>
      Response.json({ partialSuccess: { rejectedSpans: "0", errorMessage: "slow down" } }),
    );
    expect([onlyCount, onlyMessage]).toEqual([{ code: 0 }, { code: 0 }]);
    expect(warn.mock.calls).toEqual([
      ["OTLP export to http://collector.test/v1/traces: the receiver rejected 2 span(s)"],
      ["OTLP export to http://collector.test/v1/traces: the receiver rejected 0 span(s): slow down"],
    ]);
  });
});
