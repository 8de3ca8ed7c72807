/**
 * A real OpenTelemetry SDK tracer whose finished spans stay in memory, for the telemetry tests.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** A tracer and the exporter that keeps its spans. */
export interface MemoryTracer {
  /** Keeps the spans of {@link tracer} as each ends (reset it between tests). */
  readonly exporter: InMemorySpanExporter;
  /** A tracer of the SDK. */
  readonly tracer: ReturnType<BasicTracerProvider["getTracer"]>;
}

/**
 * A new tracer with its own exporter. Call it in the test file, not in a shared module: mutation
 * runs keep one module graph across runs (stryker.vitest.config.ts), and a run cut short by a failing
 * test elsewhere can still end spans later; on a tracer of its own they cannot land among the next
 * run's spans (a shared exporter once failed bridge-spans.test.ts for 29 mutants it could not see).
 */
export function memoryTracer(): MemoryTracer {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
    "wisp-test",
  );
  return { exporter, tracer };
}
