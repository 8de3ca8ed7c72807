/**
 * Layer `telemetry` (docs/architecture.md): OpenTelemetry without importing it: the option, GenAI names, a turn's span, contexts.
 *
 * The `telemetry` option: an OpenTelemetry tracer (and meter) the caller passes in. Wisp never imports
 * `@opentelemetry/api`: these are the parts of its interfaces Wisp calls, so a tracer from any API
 * version 1.x fits, and a program that passes none carries no telemetry code beyond a few checks.
 *
 * @module
 */

/** Attribute values, as OpenTelemetry takes them. */
export type TelemetryAttributes = Record<string, string | number | boolean | string[] | number[] | undefined>;

/** The part of an OpenTelemetry `SpanContext` Wisp reads. */
export interface TelemetrySpanContext {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** W3C trace flags (1: sampled). */
  traceFlags: number;
  /** Whether the context came from another process (or across a MessagePort). */
  isRemote?: boolean;
}

/** The part of an OpenTelemetry `Span` Wisp calls. */
export interface TelemetrySpan {
  /** The span's trace and span ids. */
  spanContext(): TelemetrySpanContext;
  /** Sets attributes. */
  setAttributes(attributes: TelemetryAttributes): unknown;
  /** Adds a timestamped event. */
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
  /** Sets the status: 2 is ERROR (`SpanStatusCode.ERROR`). */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span. */
  end(): void;
}

/**
 * The part of an OpenTelemetry `Context` Wisp calls: a parent is passed explicitly, never through
 * `AsyncLocalStorage`, so traces are whole in a browser and in workerd.
 */
export interface TelemetryContext {
  /** A value of the context (the span is under `Symbol.for("OpenTelemetry Context Key SPAN")`). */
  getValue(key: symbol): unknown;
  /** A new context with `key` set. */
  setValue(key: symbol, value: unknown): TelemetryContext;
  /** A new context without `key`. */
  deleteValue(key: symbol): TelemetryContext;
}

/** The part of an OpenTelemetry `Tracer` Wisp calls. */
export interface TelemetryTracer {
  /** Starts a span (`kind`: 0 internal, 2 client), a child of `context`'s span. */
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: TelemetryAttributes },
    // biome-ignore lint/suspicious/noExplicitAny: OpenTelemetry's Context; any, so any API version's tracer fits
    context?: any,
  ): TelemetrySpan;
}

/** The part of an OpenTelemetry `Histogram` Wisp calls. */
export interface TelemetryHistogram {
  /** Records a value. */
  record(value: number, attributes?: TelemetryAttributes): void;
}

/** The part of an OpenTelemetry `Meter` Wisp calls. */
export interface TelemetryMeter {
  /** Creates a histogram (Wisp creates each once per meter). */
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): TelemetryHistogram;
}

/**
 * Traces (and metrics) of Wisp's work for OpenTelemetry, following its GenAI semantic conventions:
 * `invoke_agent` per run, `chat` per model turn, `execute_tool` per tool call, MCP requests,
 * compaction, retries and approvals as events. Pass it as `telemetry` to `runAgent`, a session,
 * `streamTurn`, `connectMcp` or the bridge.
 *
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { runAgent, uncheckedModel } from "wisp-agent";
 *
 * const result = await runAgent({
 *   model: uncheckedModel("anthropic/claude-sonnet-4-5"),
 *   apiKey: "…",
 *   prompt: "Hi",
 *   telemetry: { tracer: trace.getTracer("my-app") },
 * });
 * ```
 */
export interface Telemetry {
  /** Where spans go: `trace.getTracer("my-app")` of `@opentelemetry/api` (1.x). */
  tracer: TelemetryTracer;
  /** With a meter: `gen_ai.client.token.usage` and `gen_ai.client.operation.duration` histograms. */
  meter?: TelemetryMeter;
  /**
   * The context whose span is the parent of the run's (for example `context.active()`, or a context
   * made from an incoming request's `traceparent`). Default: whatever the tracer takes for no context
   * (with a context manager, as in Node, the active span; in a browser or a Worker, a new trace).
   */
  parent?: TelemetryContext;
  /**
   * Record prompts, answers, tool arguments and tool results on the spans (`gen_ai.input.messages`,
   * `gen_ai.output.messages`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). Default
   * false: they may hold personal data.
   */
  recordContent?: boolean;
}
