/**
 * Turns whatever a provider or runtime said into one SdkError, reading the strongest signal first:
 * abort → the provider's own error type → HTTP status → `x-should-retry`; for something thrown, over
 * its whole cause chain (transport-failure.ts): a `TimeoutError` or `AbortError` by name → the
 * runtime's code or network-failure shape → message patterns.
 *
 * @module
 */

import { type ErrorCode, isRetryableCode } from "./error-codes.ts";
import { messageOf } from "./message-of.ts";
import { innermostMessage } from "./network-failure.ts";
import { parseRetryDelay } from "./retry-delay.ts";
import {
  AbortError,
  type AnySdkError,
  type FailedRequest,
  isSdkError,
  ProviderError,
  RequestError,
  type SdkErrorFields,
} from "./sdk-error.ts";
import { type TransportFailure, transportFailure } from "./transport-failure.ts";

export { isRetryableCode } from "./error-codes.ts";

/** Provider error types and codes (Anthropic `error.type`, OpenAI `error.code`/`type`, Gemini `status`). */
const PROVIDER_CODES: Record<string, ErrorCode> = {
  // Anthropic
  invalid_request_error: "INVALID_REQUEST",
  authentication_error: "AUTH",
  billing_error: "BILLING",
  permission_error: "PERMISSION",
  not_found_error: "NOT_FOUND",
  conflict_error: "CONFLICT",
  request_too_large: "REQUEST_TOO_LARGE",
  rate_limit_error: "RATE_LIMITED",
  api_error: "SERVER_ERROR",
  timeout_error: "TIMEOUT",
  overloaded_error: "OVERLOADED",
  // OpenAI and compatible servers
  context_length_exceeded: "CONTEXT_LENGTH",
  model_not_found: "MODEL_NOT_FOUND",
  insufficient_quota: "QUOTA_EXCEEDED",
  rate_limit_exceeded: "RATE_LIMITED",
  invalid_api_key: "AUTH",
  server_error: "SERVER_ERROR",
  unsupported_parameter: "INVALID_REQUEST",
  tool_use_failed: "INVALID_REQUEST",
  request_forbidden: "PERMISSION",
  unsupported_country_region_territory: "PERMISSION",
  // Gemini (google.rpc status)
  INVALID_ARGUMENT: "INVALID_REQUEST",
  FAILED_PRECONDITION: "INVALID_REQUEST",
  UNAUTHENTICATED: "AUTH",
  PERMISSION_DENIED: "PERMISSION",
  NOT_FOUND: "NOT_FOUND",
  RESOURCE_EXHAUSTED: "RATE_LIMITED",
  INTERNAL: "SERVER_ERROR",
  UNAVAILABLE: "OVERLOADED",
  DEADLINE_EXCEEDED: "TIMEOUT",
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: "INVALID_REQUEST",
  401: "AUTH",
  402: "BILLING",
  403: "PERMISSION",
  404: "NOT_FOUND",
  408: "TIMEOUT",
  409: "CONFLICT",
  413: "REQUEST_TOO_LARGE",
  422: "INVALID_REQUEST",
  429: "RATE_LIMITED",
  503: "OVERLOADED",
  504: "TIMEOUT",
  529: "OVERLOADED",
};

/** Codes too coarse to beat a specific HTTP status. */
const GENERIC_CODES = new Set<ErrorCode>(["INVALID_REQUEST", "SERVER_ERROR", "UNKNOWN"]);

function codeFromStatus(status: number): ErrorCode {
  return STATUS_CODES[status] ?? (status >= 500 ? "SERVER_ERROR" : "UNKNOWN");
}

const CONTEXT_PATTERN =
  /prompt is too long|context length|context window|maximum context|too many tokens(?! per\b)|exceeds the context/i;

/** A rate limit in words: "rate limit", or "too many tokens (requests) per minute". */
const RATE_PATTERN = /rate limit|too many (?:requests|tokens) per\b/i;

/** The last, weakest signal: the words of the message. */
function codeFromMessage(message: string): ErrorCode | undefined {
  if (CONTEXT_PATTERN.test(message)) return "CONTEXT_LENGTH";
  if (/overloaded/i.test(message)) return "OVERLOADED";
  if (RATE_PATTERN.test(message)) return "RATE_LIMITED";
  return undefined;
}

/** Refines a code using the message where the type alone is too coarse. */
function refine(code: ErrorCode, message: string): ErrorCode {
  if (code === "INVALID_REQUEST" && CONTEXT_PATTERN.test(message)) return "CONTEXT_LENGTH";
  if (code === "NOT_FOUND" && /\bmodels?\b/i.test(message)) return "MODEL_NOT_FOUND";
  if (code === "SERVER_ERROR" && /overloaded/i.test(message)) return "OVERLOADED";
  return code;
}

/** An error object as providers send it, normalized. */
interface ErrorPayload {
  type?: string;
  code?: string;
  status?: number;
  message: string;
  requestId?: string;
  spendLimit: boolean;
  retryDelayMs?: number;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Reads Anthropic, OpenAI, Gemini, OpenRouter and Groq error bodies (`{error: …}` or the bare object). */
function readPayload(body: unknown): ErrorPayload | undefined {
  const outer = asRecord(body);
  if (outer === undefined) return undefined;
  const inner = asRecord(outer.error) ?? outer;
  const message = stringField(inner, "message") ?? "";
  const rawCode = inner.code;
  const payload: ErrorPayload = {
    message,
    spendLimit: asRecord(inner.details)?.error_code === "enforced_spend_limit_reached",
  };
  const type = stringField(inner, "type");
  if (type !== undefined) payload.type = type;
  if (typeof rawCode === "string" && rawCode !== "") payload.code = rawCode;
  if (typeof rawCode === "number") payload.status = rawCode;
  const statusCode = inner.status_code;
  if (typeof statusCode === "number") payload.status = statusCode;
  const grpcStatus = stringField(inner, "status");
  if (grpcStatus !== undefined) payload.type = grpcStatus;
  const requestId = stringField(outer, "request_id")?.trim();
  if (requestId) payload.requestId = requestId;
  if (Array.isArray(inner.details)) {
    for (const detail of inner.details) {
      const delay = stringField(asRecord(detail), "retryDelay");
      const ms = delay === undefined ? undefined : parseRetryDelay(delay);
      if (ms !== undefined) payload.retryDelayMs = ms;
    }
  }
  // A body with none of these fields reads as no payload: every use of it falls through to the rest.
  return payload;
}

/** What is known about a provider failure besides its body. */
export interface ProviderFailure {
  /** The provider's wire API id (`anthropic`, …), or `mcp`; becomes the error's `provider`. */
  provider: string;
  /** The HTTP status of the answer; absent for an error event inside a 200 stream. */
  status?: number;
  /** The answer's headers, read for the request id and the server's `retry-after` wait. */
  headers?: Headers;
  /** The parsed JSON body or error event, or the raw text when it was not JSON. */
  body?: unknown;
  /** The request that got this answer (method and URL without secrets). */
  request?: FailedRequest;
}

/**
 * Classifies an error answer from a provider: an HTTP error response, or an error event / error chunk
 * that arrived inside a 200 stream.
 */
export function classifyProviderFailure(failure: ProviderFailure): ProviderError {
  const payload = readPayload(failure.body);
  const status = failure.status ?? payload?.status;
  const message =
    payload?.message ||
    (typeof failure.body === "string" ? failure.body.trim().slice(0, 500) : "") ||
    (status === undefined ? "The provider reported an error" : `HTTP ${status}`);
  const providerCode = payload?.code ?? payload?.type;

  let code: ErrorCode | undefined =
    (payload?.code && PROVIDER_CODES[payload.code]) ||
    (payload?.type && PROVIDER_CODES[payload.type]) ||
    undefined;
  if (status !== undefined && (code === undefined || GENERIC_CODES.has(code))) {
    // A generic type ("invalid_request_error" is also sent for other 4xx) yields to a specific status.
    const fromStatus = codeFromStatus(status);
    if (code === undefined || !GENERIC_CODES.has(fromStatus)) code = fromStatus;
  }
  code = code === undefined ? (codeFromMessage(message) ?? "UNKNOWN") : refine(code, message);
  if (payload?.spendLimit) code = "QUOTA_EXCEEDED";

  let retryable = isRetryableCode(code);
  const shouldRetry = failure.headers?.get("x-should-retry");
  if (shouldRetry === "true") retryable = true;
  if (shouldRetry === "false") retryable = false;

  const fields: SdkErrorFields = { code, retryable, provider: failure.provider };
  if (failure.request !== undefined) fields.request = failure.request;
  if (status !== undefined) fields.status = status;
  if (providerCode !== undefined) fields.providerCode = providerCode;
  const requestId =
    payload?.requestId ??
    failure.headers?.get("request-id") ??
    failure.headers?.get("x-request-id") ??
    undefined;
  if (requestId) fields.requestId = requestId;
  const retryAfterMs = retryAfterFromHeaders(failure.headers) ?? payload?.retryDelayMs;
  if (retryAfterMs !== undefined) fields.retryAfterMs = retryAfterMs;
  // A 404 is most often a wrong baseURL or model: say which URL was asked.
  const where =
    status === 404 && failure.request !== undefined
      ? ` (${failure.request.method} ${failure.request.url} answered 404)`
      : "";
  return new ProviderError(message + where, fields);
}

/**
 * The wait a server asked for: `retry-after-ms`, else `retry-after` as seconds or an HTTP date.
 * Undefined when absent or unreadable.
 */
export function retryAfterFromHeaders(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What the transport knows when something was thrown. */
export interface ThrownContext {
  /** The provider the request went to (`"mcp"` for an MCP server); none for a failure of your own code. */
  provider?: string | undefined;
  /**
   * The caller's signal: when it is aborted, the failure is an abort whatever was thrown. When it is
   * given and not aborted, an `AbortError` thrown is someone else's abort (a custom `fetch`'s own
   * timeout) and is a `TIMEOUT`; without a signal an `AbortError` stays `ABORTED`.
   */
  signal?: AbortSignal | undefined;
  /** Set when Wisp's own timeout fired, with the timeout's description. */
  timeout?: string | undefined;
  /** The request that failed (method and URL without secrets). */
  request?: FailedRequest | undefined;
  /** The response had begun (its headers arrived): a network failure broke the stream, not the connecting. */
  responded?: boolean;
}

/** Builds the AbortError for an aborted signal, keeping its reason as `cause`. */
export function abortErrorFrom(signal: AbortSignal, provider?: string): AbortError {
  const reason: unknown = signal.reason;
  const detail =
    reason instanceof Error && reason.name === "TimeoutError"
      ? "The signal's timeout expired"
      : "The run was aborted";
  const fields: SdkErrorFields = { code: "ABORTED", retryable: false, cause: reason };
  if (provider !== undefined) fields.provider = provider;
  return new AbortError(detail, fields);
}

/** The fields every error classified from `error` in `context` shares. */
function baseFields(code: ErrorCode, error: unknown, context: ThrownContext): SdkErrorFields {
  const fields: SdkErrorFields = { code, retryable: isRetryableCode(code), cause: error };
  if (context.provider !== undefined) fields.provider = context.provider;
  if (context.request !== undefined) fields.request = context.request;
  return fields;
}

/** The message of a transport failure: what failed, where (when known), and the runtime's own words. */
function transportMessage(
  code: "TIMEOUT" | "NETWORK",
  error: unknown,
  context: ThrownContext,
  hint: string,
): string {
  const reason = innermostMessage(error) || messageOf(error);
  const { request, provider, responded } = context;
  const target =
    request !== undefined
      ? `${request.url} (${request.method})`
      : provider === undefined
        ? ""
        : "the provider";
  if (target === "") return (reason || (code === "TIMEOUT" ? "Timed out" : "The network failed")) + hint;
  const what =
    code === "TIMEOUT"
      ? responded
        ? "Timed out reading the stream from"
        : "Timed out waiting for"
      : responded
        ? "Lost the stream from"
        : "Could not reach";
  return `${what} ${target}: ${reason}${hint}`;
}

/**
 * The RequestError for a transport failure. An abort is the caller's only when their signal says so
 * (handled before): with a signal that did not abort, an `AbortError` is the fetch's own, a timeout.
 */
function transportError(found: TransportFailure, error: unknown, context: ThrownContext): RequestError {
  const code = found.code === "NETWORK" ? "NETWORK" : "TIMEOUT";
  const fields = baseFields(code, error, context);
  if (found.permanent) fields.retryable = false;
  if (found.causeCode !== undefined) fields.causeCode = found.causeCode;
  const hint = found.permanent
    ? " (fetch never connects to this port)"
    : found.code === "ABORTED"
      ? " (aborted by the fetch itself, not by the caller's signal)"
      : "";
  return new RequestError(transportMessage(code, error, context, hint), fields);
}

/**
 * Classifies something thrown by `fetch` (the runtime's or your own wrapper), a body read, or any code.
 * Abort first (the caller's aborted `signal`), then a Wisp error as it is, Wisp's own timeout, then
 * the thrown value's whole cause chain: a `…TimeoutError` is a retryable `TIMEOUT`; an `AbortError`
 * is `ABORTED` without a `signal` and a `TIMEOUT` with one that did not abort; a runtime's code
 * (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, …) or network message is a retryable `NETWORK` or
 * `TIMEOUT`; then the words ("request timed out", "connection refused", "rate limit", …); anything
 * else is `UNKNOWN`, not retried. Never throws.
 */
export function classifyThrown(error: unknown, context: ThrownContext): AnySdkError {
  if (context.signal?.aborted) return abortErrorFrom(context.signal, context.provider);
  if (isSdkError(error)) return error;
  const where = context.request === undefined ? "" : ` (${context.request.method} ${context.request.url})`;
  if (context.timeout !== undefined)
    return new RequestError(context.timeout + where, baseFields("TIMEOUT", error, context));
  const found = transportFailure(error);
  if (found?.code === "ABORTED" && context.signal === undefined) {
    // No signal to compare with: an abort is taken as the caller's, never retried.
    const { request: _, ...fields } = baseFields("ABORTED", error, context);
    return new AbortError(messageOf(error) || "Aborted", fields);
  }
  if (found !== undefined) return transportError(found, error, context);
  const message = messageOf(error);
  const code = codeFromMessage(message) ?? "UNKNOWN";
  return new RequestError((message || "Request failed") + where, baseFields(code, error, context));
}
