/**
 * How OAuth failures become SdkErrors: a refusal or a broken answer from an authorization server is a
 * ProviderError with code `AUTH` (`provider: "mcp"`, the OAuth error or Wisp's own reason in
 * `providerCode`); a bad option is a ConfigError. Messages and details name endpoints, client ids and
 * OAuth error codes, never a token, secret, code, verifier or key.
 *
 * @module
 */

import { ConfigError, type FailedRequest, ProviderError } from "../../errors/sdk-error.ts";
import { safeUrl } from "../../http/safe-url.ts";
import { MCP_PROVIDER } from "../mcp-failures.ts";

/**
 * Wisp's reasons, in `providerCode`, besides the OAuth error codes an authorization server sends
 * (`invalid_grant`, `access_denied`, …).
 */
export type McpAuthReason =
  /** The person has to authorize in a browser; `details.authorizationUrl` is where to send them. */
  | "authorization_required"
  /** The `state` that came back is not the one sent (or nothing is pending). */
  | "state_mismatch"
  /** The protected resource metadata names another resource than the server's URL. */
  | "resource_mismatch"
  /** The authorization server's metadata offers no PKCE with S256. */
  | "pkce_unsupported"
  /** No authorization server metadata, no usable endpoint. */
  | "discovery_failed"
  /**
   * The authorization server's metadata names another issuer than the one it was fetched for, or an
   * endpoint that is not https (http only on loopback): secrets are never sent there.
   */
  | "untrusted_metadata"
  /** Dynamic client registration was refused or answered badly. */
  | "registration_failed"
  /** No way to identify the client: no pre-registered client, no CIMD, no registration endpoint. */
  | "no_client"
  /** The token endpoint refused without an OAuth error code. */
  | "token_request_failed"
  /** The token endpoint's answer is not a token response. */
  | "invalid_token_response"
  /** The callback URL carries no code. */
  | "no_code";

/** A ProviderError `AUTH` with `providerCode`, for a refusal or a failed step of OAuth. */
export function authFailure(
  message: string,
  providerCode: McpAuthReason | string,
  options: { details?: { [key: string]: unknown }; status?: number; request?: FailedRequest } = {},
): ProviderError {
  return new ProviderError(message, {
    code: "AUTH",
    retryable: false,
    provider: MCP_PROVIDER,
    providerCode,
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(options.request === undefined ? {} : { request: options.request }),
    ...(options.details === undefined ? {} : { details: options.details }),
  });
}

/** A ConfigError for a bad OAuth option at `path`. */
export function authOptionFailure(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path, provider: MCP_PROVIDER });
}

/** The request as errors name it: the method and the URL without secrets. */
export function describedRequest(method: string, url: string): FailedRequest {
  return { method, url: safeUrl(url) };
}

/**
 * An OAuth error answer's `error` and a short `error_description` (RFC 6749 §5.2), read from JSON
 * text; only these two fields are ever shown, so a body echoing a credential does not leak it.
 */
export function oauthErrorOf(body: string): { error: string; description: string } | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error !== "string") return undefined;
    const description = typeof parsed.error_description === "string" ? parsed.error_description : "";
    return { error: parsed.error.slice(0, 100), description: description.slice(0, 200) };
  } catch {
    return undefined;
  }
}
