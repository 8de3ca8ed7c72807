/**
 * Layer `providers` (docs/architecture.md): one folder per wire API: request, stream handler, stop reasons, usage.
 *
 * The contract every wire API implements: map a normalized request to an HTTP request, and turn the
 * provider's SSE stream into builder calls. Transport, retries, timeouts and cancellation are not a
 * provider's concern; they live in `stream/stream-turn.ts`.
 *
 * @module
 */

import type { SseEvent } from "../http/read-sse.ts";
import type { MessageBuilder } from "../message/message-builder.ts";
import type { JsonObject, ModelRequest, ProviderId } from "../types.ts";
import type { PriceTable } from "../usage/prices.ts";

/** Switches for servers that speak a wire format with deviations (OpenAI-compatible servers). */
export interface CompatOptions {
  /** Which field carries the output limit. Default: `max_completion_tokens` for api.openai.com, else `max_tokens`. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Send `stream_options.include_usage` (default true). Some older servers reject it. */
  includeUsage?: boolean;
}

/** Everything a provider needs to build its HTTP request. */
export interface ProviderConfig {
  model: string;
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  compat?: CompatOptions;
}

/** An HTTP request ready for `fetch`. */
export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: JsonObject;
}

/** Consumes one provider stream. Methods throw an AnySdkError when the stream reports or is a failure. */
export interface StreamHandler {
  /** One SSE event. Throws ProviderError for an error event, ParseError for malformed data. */
  onEvent(event: SseEvent): void;
  /** True once the stream's terminal event arrived; nothing after it is read. */
  isDone(): boolean;
  /** The body ended. Completes the message, or throws ParseError(STREAM_TRUNCATED) if it ended too soon. */
  end(): void;
}

/** One wire API. */
export interface Provider {
  id: ProviderId;
  defaultBaseURL: string;
  /** List prices of this provider's models (the caller's `prices` extend and override them). */
  prices: PriceTable;
  buildRequest(request: ModelRequest, config: ProviderConfig): WireRequest;
  createStreamHandler(builder: MessageBuilder): StreamHandler;
}
