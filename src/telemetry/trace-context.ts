/**
 * OpenTelemetry contexts without `@opentelemetry/api`: the API keeps a context's span under
 * `Symbol.for("OpenTelemetry Context Key SPAN")` (a `Symbol.for`, so that several copies of the API
 * agree), and a tracer reads its parent from there. So Wisp passes parents explicitly — a context of
 * the caller's, with the span set — and never needs `AsyncLocalStorage`; and it carries a trace across
 * a MessagePort as a W3C `traceparent`.
 *
 * @module
 */

import type { TelemetryContext, TelemetrySpan, TelemetrySpanContext } from "./telemetry-options.ts";

/** Where an OpenTelemetry context keeps its span. */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** A context of its own, for a run given no parent: immutable, like the API's. */
class PlainContext implements TelemetryContext {
  readonly #values: ReadonlyMap<symbol, unknown>;

  constructor(values: ReadonlyMap<symbol, unknown> = new Map()) {
    this.#values = values;
  }

  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }

  setValue(key: symbol, value: unknown): TelemetryContext {
    return new PlainContext(new Map(this.#values).set(key, value));
  }

  deleteValue(key: symbol): TelemetryContext {
    const values = new Map(this.#values);
    values.delete(key);
    return new PlainContext(values);
  }
}

/** `parent` (or an empty context) with `span` as its span: what a child span is started in. */
export function contextWithSpan(parent: TelemetryContext | undefined, span: TelemetrySpan): TelemetryContext {
  return (parent ?? new PlainContext()).setValue(SPAN_KEY, span);
}

/** The W3C `traceparent` of `context`'s span, or undefined when it has none (or an invalid one). */
export function traceparentOf(context: TelemetryContext | undefined): string | undefined {
  const span = context?.getValue(SPAN_KEY) as TelemetrySpan | undefined;
  const ids = span?.spanContext?.();
  if (ids === undefined || !/^[0-9a-f]{32}$/.test(ids.traceId) || !/^[0-9a-f]{16}$/.test(ids.spanId))
    return undefined;
  if (/^0+$/.test(ids.traceId) || /^0+$/.test(ids.spanId)) return undefined;
  return `00-${ids.traceId}-${ids.spanId}-${(ids.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** A span that only names a remote parent (what the API calls a non-recording span). */
function remoteSpan(ids: TelemetrySpanContext): TelemetrySpan {
  return {
    spanContext: () => ids,
    setAttributes: () => undefined,
    addEvent: () => undefined,
    setStatus: () => undefined,
    end: () => {},
  };
}

/**
 * A context whose parent is the span a W3C `traceparent` names (from another thread or process), so
 * the spans started in it join that trace; undefined for a malformed one.
 */
export function contextFromTraceparent(
  traceparent: string,
  base?: TelemetryContext,
): TelemetryContext | undefined {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent);
  if (match === null) return undefined;
  const [, traceId = "", spanId = "", flags = "00"] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return contextWithSpan(
    base,
    remoteSpan({ traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true }),
  );
}
