/**
 * A real OpenTelemetry SDK tracer whose finished spans stay in memory, for the telemetry tests.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** The exporter that keeps the spans (reset it between tests). */
export const exporter = new InMemorySpanExporter();

/** A tracer of the SDK, its spans exported to {@link exporter} as each ends. */
export const tracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
}).getTracer("wisp-test");
