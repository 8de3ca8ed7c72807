/**
 * What OpenTelemetry's GenAI semantic conventions call Wisp's things: provider names, finish reasons,
 * token counts, and the instruments both spans and metrics use.
 *
 * @module
 */

import type { ProviderId, Usage } from "../types.ts";
import type {
  TelemetryAttributes,
  TelemetryHistogram,
  TelemetryMeter,
  TelemetrySpan,
} from "./telemetry-options.ts";

/** Span kinds (`SpanKind` of `@opentelemetry/api`). */
export const SPAN_KIND = { internal: 0, client: 2 } as const;

/** `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2;

/** `gen_ai.provider.name` of each wire API (OpenAI's two APIs are both "openai"). */
export function providerName(provider: ProviderId | string): string {
  if (provider === "openai-chat" || provider === "openai-responses") return "openai";
  if (provider === "google") return "gcp.gemini";
  return provider;
}

/** The `gen_ai.usage.*` attributes of `usage` (input counts the whole prompt, cached tokens included). */
export function usageAttributes(usage: Usage): TelemetryAttributes {
  return {
    "gen_ai.usage.input_tokens": usage.input + usage.cacheRead + usage.cacheWrite,
    "gen_ai.usage.output_tokens": usage.output,
    "gen_ai.usage.cache_read.input_tokens": usage.cacheRead,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite,
    "gen_ai.usage.reasoning.output_tokens": usage.reasoning,
  };
}

/** Marks `span` failed: `error.type` is Wisp's error code (or the error's name), the status ERROR. */
export function recordError(
  span: TelemetrySpan,
  error: { code?: string; name?: string; message?: string },
): void {
  const type = error.code ?? error.name ?? "_OTHER";
  span.setAttributes({ "error.type": type });
  span.setStatus({ code: STATUS_ERROR, message: error.message ?? type });
}

/** The two GenAI client histograms, made once per meter. */
export interface GenAiInstruments {
  duration: TelemetryHistogram;
  tokens: TelemetryHistogram;
}

const instruments = new WeakMap<TelemetryMeter, GenAiInstruments>();

/** `count` bucket boundaries, each `factor` times the one before, from `first` (as the conventions advise). */
function buckets(first: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) => first * factor ** index);
}

/** `gen_ai.client.operation.duration` (s) and `gen_ai.client.token.usage` ({token}) of `meter`. */
export function genAiInstruments(meter: TelemetryMeter): GenAiInstruments {
  let made = instruments.get(meter);
  if (made === undefined) {
    const histogram = (name: string, description: string, unit: string, bounds: number[]) =>
      meter.createHistogram(name, { description, unit, advice: { explicitBucketBoundaries: bounds } });
    made = {
      duration: histogram(
        "gen_ai.client.operation.duration",
        "GenAI operation duration",
        "s",
        buckets(0.01, 2, 14),
      ),
      tokens: histogram(
        "gen_ai.client.token.usage",
        "Measures number of input and output tokens used",
        "{token}",
        buckets(1, 4, 14),
      ),
    };
    instruments.set(meter, made);
  }
  return made;
}
