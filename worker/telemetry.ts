/**
 * The demo's traces: when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, runs get an OpenTelemetry tracer
 * (`BasicTracerProvider` of `@opentelemetry/sdk-trace-base`, service `wisp-demo`) whose spans are
 * posted over OTLP/HTTP JSON with `fetch` ({@link OtlpHttpJsonExporter}) once the run has ended.
 *
 * No global provider or context manager is registered: Wisp passes each span's parent explicitly,
 * which is what lets a trace be whole in workerd without `nodejs_compat` (no AsyncLocalStorage).
 * Ended spans wait in a buffer of the isolate (a Worker has no background time to export on a
 * timer, as `BatchSpanProcessor` would) until {@link flushTelemetry}, which the Durable Object calls
 * under `waitUntil` when a run ends: one request per run, sent after the client heard the run end.
 * A failed export is logged and its spans dropped; it never fails a run.
 *
 * @module
 */

import { type Context, TraceFlags, type Tracer } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { Env } from "./env.ts";
import { type ExportResult, OtlpHttpJsonExporter, parseOtlpHeaders } from "./otlp-exporter.ts";

/** The `service.name` of the demo's traces. */
export const SERVICE_NAME = "wisp-demo";

/** Spans sent per request. */
const MAX_EXPORT_BATCH = 512;

/** Ended spans kept until the next flush; more are dropped (and counted in a warning). */
const MAX_BUFFERED_SPANS = 8192;

/**
 * A span processor for a Worker: keeps ended, sampled spans until {@link RunSpanProcessor.forceFlush},
 * then exports them in batches of {@link MAX_EXPORT_BATCH}. Nothing runs on a timer.
 */
export class RunSpanProcessor implements SpanProcessor {
  readonly #exporter: SpanExporter;
  readonly #maxBuffered: number;
  #buffer: ReadableSpan[] = [];
  #dropped = 0;

  constructor(exporter: SpanExporter, maxBuffered = MAX_BUFFERED_SPANS) {
    this.#exporter = exporter;
    this.#maxBuffered = maxBuffered;
  }

  onStart(_span: unknown, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.#buffer.length >= this.#maxBuffered) this.#dropped += 1;
    else this.#buffer.push(span);
  }

  /** Exports every span ended so far; a failed batch is logged and dropped. Never rejects. */
  async forceFlush(): Promise<void> {
    const spans = this.#buffer;
    this.#buffer = [];
    if (this.#dropped > 0) {
      console.warn(`OpenTelemetry: ${this.#dropped} span(s) dropped, more than ${this.#maxBuffered} waited`);
      this.#dropped = 0;
    }
    for (let at = 0; at < spans.length; at += MAX_EXPORT_BATCH) {
      const batch = spans.slice(at, at + MAX_EXPORT_BATCH);
      const result = await new Promise<ExportResult>((resolve) => {
        try {
          this.#exporter.export(batch, resolve);
        } catch (error) {
          resolve({ code: 1, error: error instanceof Error ? error : new Error(String(error)) });
        }
      });
      if (result.code !== 0) {
        console.error(
          `OpenTelemetry: ${batch.length} span(s) not exported: ${result.error?.message ?? "export failed"}`,
        );
      }
    }
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    await this.#exporter.shutdown();
  }
}

/** The demo's tracer, and how to send what it recorded. */
export interface WorkerTelemetry {
  /** Pass as `telemetry: { tracer }`. */
  tracer: Tracer;
  /** Exports the spans ended so far; logs failures, never rejects. */
  flush(): Promise<void>;
}

/** One tracer per isolate and configuration (the Durable Objects of an isolate share it). */
const configured = new Map<string, WorkerTelemetry>();

/**
 * The demo's tracer when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (with `OTEL_EXPORTER_OTLP_HEADERS`
 * on every request), else undefined.
 */
export function workerTelemetry(env: Env): WorkerTelemetry | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const headers = env.OTEL_EXPORTER_OTLP_HEADERS ?? "";
  const key = `${endpoint}\n${headers}`;
  const known = configured.get(key);
  if (known !== undefined) return known;
  const processor = new RunSpanProcessor(
    new OtlpHttpJsonExporter({ endpoint, headers: parseOtlpHeaders(headers) }),
  );
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME }),
    spanProcessors: [processor],
  });
  const telemetry: WorkerTelemetry = {
    tracer: provider.getTracer(SERVICE_NAME),
    // RunSpanProcessor.forceFlush logs a failed export itself and never rejects.
    flush: () => processor.forceFlush(),
  };
  configured.set(key, telemetry);
  return telemetry;
}

/** Exports the spans ended so far, when telemetry is configured (for `ctx.waitUntil`). Never rejects. */
export function flushTelemetry(env: Env): Promise<void> {
  return workerTelemetry(env)?.flush() ?? Promise.resolve();
}
