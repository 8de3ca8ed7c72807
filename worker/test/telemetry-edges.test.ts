/**
 * The Worker's span processor and tracer cache, beyond worker/test/otlp-exporter.test.ts: spans that
 * are recorded but not sampled stay out, a clean flush logs nothing, an exporter that throws or fails
 * without an error is logged and never hangs the flush, shutdown flushes first, and
 * OTEL_EXPORTER_OTLP_ENDPOINT is trimmed and, with the headers, picks the tracer.
 */
import {
  BasicTracerProvider,
  type ReadableSpan,
  SamplingDecision,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../env.ts";
import type { ExportResult } from "../otlp-exporter.ts";
import { RunSpanProcessor, workerTelemetry } from "../telemetry.ts";

/** An exporter that answers every export with `answer` and notes what it was asked. */
function recordingExporter(answer: (spans: ReadableSpan[]) => ExportResult): {
  exporter: SpanExporter;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    exporter: {
      export: (spans, done) => {
        calls.push(`export ${spans.map((span) => span.name).join(",")}`);
        done(answer(spans));
      },
      shutdown: async () => {
        calls.push("shutdown");
      },
    },
  };
}

/** Ends one span named `name` on a provider whose only processor is `processor`. */
function endSpan(processor: RunSpanProcessor, name: string): void {
  new BasicTracerProvider({ spanProcessors: [processor] }).getTracer("t").startSpan(name).end();
}

describe("RunSpanProcessor", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("leaves out spans that are recorded but not sampled", async () => {
    const { exporter, calls } = recordingExporter(() => ({ code: 0 }));
    const processor = new RunSpanProcessor(exporter);
    const provider = new BasicTracerProvider({
      spanProcessors: [processor],
      sampler: { shouldSample: () => ({ decision: SamplingDecision.RECORD }), toString: () => "record only" },
    });
    const span = provider.getTracer("t").startSpan("recorded, not sampled");
    expect(span.isRecording()).toBe(true);
    span.end();
    endSpan(processor, "sampled");
    await processor.forceFlush();
    expect(calls).toEqual(["export sampled"]);
  });

  it("logs nothing when every span was kept and exported", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { exporter, calls } = recordingExporter(() => ({ code: 0 }));
    const processor = new RunSpanProcessor(exporter);
    endSpan(processor, "a");
    await processor.forceFlush();
    expect(calls).toEqual(["export a"]);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it("logs an exporter that throws, with what it threw, and the flush still resolves", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    let thrown: unknown = new Error("exporter broke");
    const processor = new RunSpanProcessor({
      export: () => {
        throw thrown;
      },
      shutdown: async () => {},
    });
    endSpan(processor, "a");
    await expect(processor.forceFlush()).resolves.toBeUndefined();
    thrown = "not an Error";
    endSpan(processor, "b");
    await expect(processor.forceFlush()).resolves.toBeUndefined();
    expect(error.mock.calls).toEqual([
      ["OpenTelemetry: 1 span(s) not exported: exporter broke"],
      ["OpenTelemetry: 1 span(s) not exported: not an Error"],
    ]);
  });

  it("logs a failed export that gave no error as 'export failed'", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { exporter } = recordingExporter(() => ({ code: 1 }));
    const processor = new RunSpanProcessor(exporter);
    endSpan(processor, "a");
    await processor.forceFlush();
    expect(error.mock.calls).toEqual([["OpenTelemetry: 1 span(s) not exported: export failed"]]);
  });

  it("on shutdown, exports the spans it holds and then shuts the exporter down", async () => {
    const { exporter, calls } = recordingExporter(() => ({ code: 0 }));
    const processor = new RunSpanProcessor(exporter);
    endSpan(processor, "held");
    await processor.shutdown();
    expect(calls).toEqual(["export held", "shutdown"]);
  });
});

describe("workerTelemetry", () => {
  it("is off when OTEL_EXPORTER_OTLP_ENDPOINT is only blanks", () => {
    expect(workerTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: "  \t " } as Env)).toBeUndefined();
  });

  it("has a tracer per endpoint and headers; unset headers and empty headers are the same configuration", () => {
    const one = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://telemetry-edges-one.test:4318" } as Env;
    const two = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://telemetry-edges-two.test:4318" } as Env;
    const oneWithKey = { ...one, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k" } as Env;
    const first = workerTelemetry(one);
    expect(first).toBeDefined();
    expect(workerTelemetry(two)).not.toBe(first);
    expect(workerTelemetry(oneWithKey)).not.toBe(first);
    expect(workerTelemetry({ ...one, OTEL_EXPORTER_OTLP_HEADERS: "" } as Env)).toBe(first);
    // Blanks around the endpoint are not part of it.
    expect(
      workerTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: " http://telemetry-edges-one.test:4318\n" } as Env),
    ).toBe(first);
  });
});
