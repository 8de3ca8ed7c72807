/**
 * A small OTLP/HTTP JSON span exporter on `fetch`, for a Worker without `nodejs_compat`.
 *
 * It implements `SpanExporter` of `@opentelemetry/sdk-trace-base` and posts each batch to
 * `${endpoint}/v1/traces` as an `ExportTraceServiceRequest` in OTLP's JSON encoding (the protobuf
 * messages in proto3's JSON mapping, with trace and span ids as hex, as OTLP/JSON asks): resourceSpans
 * → scopeSpans → spans, times as unix nanoseconds in strings, attributes as `{ key, value: AnyValue }`.
 * Failures (network, timeout, a status other than 2xx) come back as a failed export result, never as
 * a throw.
 *
 * @module
 */

import type { Attributes, AttributeValue, HrTime, Link, SpanContext } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter, TimedEvent } from "@opentelemetry/sdk-trace-base";

/** What `SpanExporter.export` hands its callback (`ExportResult` of `@opentelemetry/core`). */
export type ExportResult = Parameters<Parameters<SpanExporter["export"]>[1]>[0];

/** `ExportResultCode.SUCCESS` and `ExportResultCode.FAILED` of `@opentelemetry/core`. */
const SUCCESS = 0;
const FAILED = 1;

/** An OTLP `AnyValue` in JSON. */
type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: OtlpAnyValue[] } }
  | Record<string, never>;

/** An OTLP `KeyValue` in JSON. */
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** An OTLP span event in JSON. */
interface OtlpEvent {
  timeUnixNano: string;
  name: string;
  attributes: OtlpKeyValue[];
  droppedAttributesCount: number;
}

/** An OTLP span link in JSON. */
interface OtlpLink {
  traceId: string;
  spanId: string;
  traceState?: string;
  attributes: OtlpKeyValue[];
  droppedAttributesCount: number;
  flags: number;
}

/** An OTLP span in JSON. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  traceState?: string;
  /** Absent on a root span. */
  parentSpanId?: string;
  /** W3C trace flags in the low byte; 0x100: whether the parent is remote is known; 0x200: it is. */
  flags: number;
  name: string;
  /** OTLP's `SpanKind`: the API's kind + 1 (1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  droppedAttributesCount: number;
  events: OtlpEvent[];
  droppedEventsCount: number;
  links: OtlpLink[];
  droppedLinksCount: number;
  /** 0 unset, 1 ok, 2 error (the API's codes). */
  status: { code: number; message?: string };
}

/** An OTLP `ExportTraceServiceRequest` in JSON. */
export interface OtlpTraceRequest {
  resourceSpans: Array<{
    resource: { attributes: OtlpKeyValue[]; droppedAttributesCount: number };
    schemaUrl?: string;
    scopeSpans: Array<{
      scope: { name: string; version?: string };
      schemaUrl?: string;
      spans: OtlpSpan[];
    }>;
  }>;
}

/** How an {@link OtlpHttpJsonExporter} sends. */
export interface OtlpExporterOptions {
  /**
   * The OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`, e.g. `http://127.0.0.1:4318`): spans are
   * posted to `${endpoint}/v1/traces`.
   */
  endpoint: string;
  /** Headers sent with every request (an API key, say); see {@link parseOtlpHeaders}. */
  headers?: Record<string, string> | undefined;
  /** How long one request may take before it is aborted and the export fails. Default 10,000 ms. */
  timeoutMillis?: number;
  /** The fetch to send with (tests pass one). Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** `${endpoint}/v1/traces`, with or without a slash at the end of the endpoint. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, "")}/v1/traces`;
}

/**
 * Headers from `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, values
 * percent-decoded, blanks around them trimmed; a pair without `=` or with an empty key is skipped.
 */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at < 0) continue;
    const key = pair.slice(0, at).trim();
    if (key === "") continue;
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: taken as written.
    }
    headers[key] = value;
  }
  return headers;
}

/** An `HrTime` (`[seconds, nanoseconds]`) as unix nanoseconds, a decimal string (OTLP's fixed64 in JSON). */
export function hrTimeToNanos([seconds, nanos]: HrTime): string {
  return (BigInt(Math.trunc(seconds)) * 1_000_000_000n + BigInt(Math.trunc(nanos))).toString();
}

function anyValue(value: unknown): OtlpAnyValue {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  // null or undefined in an array: an empty AnyValue.
  return {};
}

/** Attributes as OTLP `KeyValue`s (an undefined value is left out). */
function toKeyValues(attributes: Attributes | undefined): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const [key, value] of Object.entries(attributes ?? {}) as Array<
    [string, AttributeValue | undefined]
  >) {
    if (value !== undefined) out.push({ key, value: anyValue(value) });
  }
  return out;
}

/** Span flags as OTLP defines them: trace flags, and whether the parent (or link) is remote. */
function spanFlags(traceFlags: number, remote: boolean | undefined): number {
  return (traceFlags & 0xff) | 0x100 | (remote ? 0x200 : 0);
}

function traceState(context: SpanContext): { traceState?: string } {
  const state = context.traceState?.serialize();
  return state ? { traceState: state } : {};
}

function toEvent(event: TimedEvent): OtlpEvent {
  return {
    timeUnixNano: hrTimeToNanos(event.time),
    name: event.name,
    attributes: toKeyValues(event.attributes),
    droppedAttributesCount: event.droppedAttributesCount ?? 0,
  };
}

function toLink(link: Link): OtlpLink {
  return {
    traceId: link.context.traceId,
    spanId: link.context.spanId,
    ...traceState(link.context),
    attributes: toKeyValues(link.attributes),
    droppedAttributesCount: link.droppedAttributesCount ?? 0,
    flags: spanFlags(link.context.traceFlags, link.context.isRemote),
  };
}

/** One finished span in OTLP's JSON encoding. */
function toOtlpSpan(span: ReadableSpan): OtlpSpan {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...traceState(context),
    ...(parent?.spanId ? { parentSpanId: parent.spanId } : {}),
    flags: spanFlags(context.traceFlags, parent?.isRemote),
    name: span.name,
    kind: (span.kind ?? 0) + 1,
    startTimeUnixNano: hrTimeToNanos(span.startTime),
    endTimeUnixNano: hrTimeToNanos(span.endTime),
    attributes: toKeyValues(span.attributes),
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events.map(toEvent),
    droppedEventsCount: span.droppedEventsCount,
    links: span.links.map(toLink),
    droppedLinksCount: span.droppedLinksCount,
    status: span.status.message
      ? { code: span.status.code, message: span.status.message }
      : { code: span.status.code },
  };
}

/**
 * Finished spans as one `ExportTraceServiceRequest`: grouped by resource, then by instrumentation
 * scope (name, version and schema URL), in the order they came.
 */
export function encodeSpans(spans: readonly ReadableSpan[]): OtlpTraceRequest {
  const byResource = new Map<ReadableSpan["resource"], Map<string, ReadableSpan[]>>();
  for (const span of spans) {
    let byScope = byResource.get(span.resource);
    if (byScope === undefined) byResource.set(span.resource, (byScope = new Map()));
    const { name, version, schemaUrl } = span.instrumentationScope;
    const key = `${name}@${version ?? ""}:${schemaUrl ?? ""}`;
    const list = byScope.get(key);
    if (list === undefined) byScope.set(key, [span]);
    else list.push(span);
  }
  return {
    resourceSpans: [...byResource].map(([resource, byScope]) => ({
      resource: { attributes: toKeyValues(resource.attributes), droppedAttributesCount: 0 },
      ...(resource.schemaUrl ? { schemaUrl: resource.schemaUrl } : {}),
      scopeSpans: [...byScope.values()].map((list) => {
        const { name, version, schemaUrl } = list[0]!.instrumentationScope;
        return {
          scope: version ? { name, version } : { name },
          ...(schemaUrl ? { schemaUrl } : {}),
          spans: list.map(toOtlpSpan),
        };
      }),
    })),
  };
}

/** What the receiver may say back: spans it rejected (`partialSuccess`, OTLP 1.x). */
interface OtlpTraceResponse {
  partialSuccess?: { rejectedSpans?: string | number; errorMessage?: string };
}

/**
 * Posts finished spans to an OTLP/HTTP endpoint as JSON with `fetch`; see the module comment. A
 * receiver that accepts the request but rejects some spans (`partialSuccess`) is logged, and the
 * export counts as done (OTLP says not to retry it).
 */
export class OtlpHttpJsonExporter implements SpanExporter {
  readonly url: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMillis: number;
  readonly #fetch: typeof fetch;
  readonly #pending = new Set<Promise<unknown>>();
  #shutDown = false;

  constructor(options: OtlpExporterOptions) {
    this.url = tracesUrl(options.endpoint);
    this.#headers = { ...options.headers, "content-type": "application/json" };
    this.#timeoutMillis = options.timeoutMillis ?? 10_000;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.#shutDown) {
      resultCallback({ code: FAILED, error: new Error("The OTLP exporter is shut down") });
      return;
    }
    const sent = this.#send(spans);
    this.#pending.add(sent);
    void sent.then((result) => {
      this.#pending.delete(sent);
      resultCallback(result);
    });
  }

  /** Waits for the requests in flight. */
  async forceFlush(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async shutdown(): Promise<void> {
    this.#shutDown = true;
    await this.forceFlush();
  }

  async #send(spans: ReadableSpan[]): Promise<ExportResult> {
    if (spans.length === 0) return { code: SUCCESS };
    try {
      const body = JSON.stringify(encodeSpans(spans));
      const response = await this.#fetch(this.url, {
        method: "POST",
        headers: this.#headers,
        body,
        signal: AbortSignal.timeout(this.#timeoutMillis),
      });
      const text = await response.text();
      if (!response.ok) {
        const detail = text.length > 200 ? `${text.slice(0, 200)}…` : text;
        return {
          code: FAILED,
          error: new Error(
            `OTLP export to ${this.url} got HTTP ${response.status}${detail ? `: ${detail}` : ""}`,
          ),
        };
      }
      const rejected = partialSuccess(text);
      if (rejected !== undefined) console.warn(`OTLP export to ${this.url}: ${rejected}`);
      return { code: SUCCESS };
    } catch (error) {
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return {
        code: FAILED,
        error: new Error(`OTLP export to ${this.url} failed: ${why}`, { cause: error }),
      };
    }
  }
}

/** What a JSON response's `partialSuccess` reports, or undefined when nothing was rejected. */
function partialSuccess(text: string): string | undefined {
  let parsed: OtlpTraceResponse;
  try {
    parsed = JSON.parse(text) as OtlpTraceResponse;
  } catch {
    return undefined; // an empty or non-JSON body from a receiver that accepted the request
  }
  const partial = parsed?.partialSuccess;
  const rejected = Number(partial?.rejectedSpans ?? 0);
  if (!(rejected > 0) && !partial?.errorMessage) return undefined;
  return `the receiver rejected ${rejected} span(s)${partial?.errorMessage ? `: ${partial.errorMessage}` : ""}`;
}
