/**
 * How MCP failures become SdkErrors, keeping the family's meaning: a server's HTTP error status or
 * JSON-RPC error is a ProviderError (`provider: "mcp"`, the JSON-RPC code in `providerCode`), an
 * answer that is not MCP is a ParseError, the transport's own failures (network, timeout) are
 * RequestErrors and an abort is an AbortError (both from `classifyThrown`).
 *
 * @module
 */

import { classifyThrown, retryAfterFromHeaders } from "../errors/classify.ts";
import {
  type AnySdkError,
  ConfigError,
  type FailedRequest,
  ParseError,
  ProviderError,
  type ProviderErrorCode,
} from "../errors/sdk-error.ts";
import { safeUrl } from "../http/safe-url.ts";
import type { RpcErrorObject } from "./json-rpc.ts";

/** The `provider` every MCP error carries. */
export const MCP_PROVIDER = "mcp";

/** What a status means, for a server's HTTP error answer. */
function codeOfStatus(status: number): ProviderErrorCode {
  if (status === 401) return "AUTH";
  if (status === 403) return "PERMISSION";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status === 413) return "REQUEST_TOO_LARGE";
  if (status === 429) return "RATE_LIMITED";
  if (status === 503 || status === 529) return "OVERLOADED";
  if (status >= 500) return "SERVER_ERROR";
  return status === 400 || status === 422 ? "INVALID_REQUEST" : "UNKNOWN";
}

/**
 * A redirect from the MCP endpoint: a ConfigError at `url` naming where it points (when the runtime
 * shows it), as following it would send the connection's headers to another address.
 */
export function redirected(response: Response, request: FailedRequest): ConfigError {
  const location = response.headers.get("location");
  let target = "";
  if (location !== null) {
    try {
      target = ` to ${safeUrl(new URL(location, request.url).href)}`;
    } catch {
      target = " to an address that is not a URL";
    }
  }
  return new ConfigError(
    `The MCP server answered with a redirect${target} (${request.method} ${request.url}); Wisp does not follow it, so the connection's headers stay with the address you gave: pass the final URL as url`,
    { code: "CONFIG_INVALID", path: "url", provider: MCP_PROVIDER, request },
  );
}

/** A ProviderError for a non-2xx answer; `body` is its text (a JSON-RPC error in it is read). */
export function httpFailure(response: Response, body: string, request: FailedRequest): ProviderError {
  const status = response.status;
  const code = codeOfStatus(status);
  let detail = body.slice(0, 300);
  let rpcCode: number | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.message === "string") detail = parsed.error.message;
    if (typeof parsed.error?.code === "number") rpcCode = parsed.error.code;
  } catch {
    // not JSON: the text itself is the detail
  }
  const retryAfter = retryAfterFromHeaders(response.headers);
  return new ProviderError(
    `The MCP server answered ${status}${detail === "" ? "" : `: ${detail}`} (${request.method} ${request.url})`,
    {
      code,
      status,
      retryable: code === "RATE_LIMITED" || code === "OVERLOADED" || code === "SERVER_ERROR",
      provider: MCP_PROVIDER,
      request,
      ...(rpcCode === undefined ? {} : { providerCode: String(rpcCode) }),
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    },
  );
}

/** What JSON-RPC's and MCP's error codes mean. */
function codeOfRpc(code: number): ProviderErrorCode {
  if (code === -32601) return "NOT_FOUND";
  if (code === -32600 || code === -32602 || code === -32700) return "INVALID_REQUEST";
  if (code === -32603) return "SERVER_ERROR";
  if (code === -32001) return "TIMEOUT"; // the official SDK's RequestTimeout
  if (code === -32002) return "NOT_FOUND"; // resource not found
  return "UNKNOWN";
}

/** A ProviderError for a JSON-RPC error answer to `method`. */
export function rpcFailure(error: RpcErrorObject, method: string, request: FailedRequest): ProviderError {
  return new ProviderError(`MCP ${method} failed: ${error.message} (JSON-RPC error ${error.code})`, {
    code: codeOfRpc(error.code),
    // The server answered: its error is its own, not one another attempt would change.
    retryable: false,
    provider: MCP_PROVIDER,
    providerCode: String(error.code),
    request,
    ...(error.data === undefined ? {} : { details: { data: error.data } }),
  });
}

/** A ParseError for an answer that is not MCP (malformed JSON, no response, a wrong shape). */
export function protocolFailure(
  message: string,
  request: FailedRequest,
  code: "STREAM_MALFORMED" | "STREAM_TRUNCATED" = "STREAM_MALFORMED",
): ParseError {
  return new ParseError(`${message} (${request.method} ${request.url})`, {
    code,
    retryable: false,
    provider: MCP_PROVIDER,
    request,
  });
}

/** What broke an answer the server had begun (its body), so that {@link thrownFailure} says the stream was lost. */
export class AnswerLost extends Error {
  override readonly name = "AnswerLost";
  /** What was thrown while the answer was read. */
  readonly lost: unknown;
  constructor(lost: unknown) {
    super("The MCP server's answer broke off");
    this.lost = lost;
  }
}

/** Anything thrown during an exchange, as an SdkError (abort first, then a timeout, the network, …). */
export function thrownFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  timeout: string | undefined,
  request: FailedRequest,
): AnySdkError {
  const responded = error instanceof AnswerLost;
  return classifyThrown(responded ? error.lost : error, {
    provider: MCP_PROVIDER,
    signal,
    timeout,
    request,
    responded,
  });
}
