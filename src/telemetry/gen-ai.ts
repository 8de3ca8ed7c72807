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

/** `gen_ai.client.operation.duration` (s) and `gen_ai.client.token.usage` ({token}) of `meter`. */
export function genAiInstruments(meter: TelemetryMeter): GenAiInstruments {
  let made = instruments.get(meter);
  if (made === undefined) {
    made = {
      duration: meter.createHistogram("gen_ai.client.operation.duration", {
        description: "GenAI operation duration",
        unit: "s",
        advice: {
          explicitBucketBoundaries: [
            0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
          ],
        },
      }),
      tokens: meter.createHistogram("gen_ai.client.token.usage", {
        description: "Measures number of input and output tokens used",
        unit: "{token}",
        advice: {
          explicitBucketBoundaries: [
            1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
          ],
        },
      }),
    };
    instruments.set(meter, made);
  }
  return made;
}
