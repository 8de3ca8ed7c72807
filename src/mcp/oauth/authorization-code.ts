/**
 * The authorization code flow's two ends: the authorization URL (PKCE S256, `state`, `resource`,
 * `scope`) with the pending record kept until the person comes back, and the reading of the URL they
 * come back to (the `state` checked, the `code` or the server's error taken out).
 *
 * @module
 */

import { redactText } from "../../errors/redact.ts";
import { sameIssuer } from "./discovery.ts";
import { authFailure } from "./oauth-failures.ts";
import { createPkce, randomToken } from "./pkce.ts";
import type { TokenGrant } from "./token-grant.ts";

/** An authorization under way (plain JSON, kept in storage until the person comes back). */
export type PendingAuthorization = {
  /** The `state` sent: the one that must come back. */
  state: string;
  /** The PKCE verifier: secret until the token request. */
  verifier: string;
  redirectUrl: string;
  authorizationEndpoint: string;
  grant: TokenGrant;
  /** The scope asked for, when one was. */
  scope?: string;
  /** When it began, epoch ms. */
  createdAt: number;
};

/** What an authorization request needs besides the PKCE pair and `state` it makes. */
export interface AuthorizationRequest {
  authorizationEndpoint: string;
  redirectUrl: string;
  grant: TokenGrant;
  scope: string | undefined;
}

/** Makes the PKCE pair and `state`, and the URL to send the person to (RFC 6749 §4.1.1, RFC 7636, RFC 8707). */
export async function beginAuthorization(
  request: AuthorizationRequest,
): Promise<{ pending: PendingAuthorization; authorizationUrl: string }> {
  const pkce = await createPkce();
  const state = randomToken(24);
  const url = new URL(request.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", request.grant.client.clientId);
  url.searchParams.set("redirect_uri", request.redirectUrl);
  url.searchParams.set("code_challenge", pkce.challenge);
  url.searchParams.set("code_challenge_method", pkce.method);
  url.searchParams.set("state", state);
  url.searchParams.set("resource", request.grant.resource);
  if (request.scope !== undefined && request.scope !== "") url.searchParams.set("scope", request.scope);
  const pending: PendingAuthorization = {
    state,
    verifier: pkce.verifier,
    redirectUrl: request.redirectUrl,
    authorizationEndpoint: request.authorizationEndpoint,
    grant: request.grant,
    createdAt: Date.now(),
  };
  if (request.scope !== undefined && request.scope !== "") pending.scope = request.scope;
  return { pending, authorizationUrl: url.href };
}

/**
 * The code in the URL the person came back to. Throws a ProviderError `AUTH`: `state_mismatch` when
 * its `state` is not the pending one (or nothing is pending), the server's `error` (`access_denied`,
 * …) when it sent one, `no_code` when there is no code.
 */
export function codeFromCallback(callbackUrl: string, pending: PendingAuthorization | undefined): string {
  let params: URLSearchParams;
  try {
    params = new URL(callbackUrl).searchParams;
  } catch {
    throw authFailure("The URL the authorization came back to is not a URL", "no_code");
  }
  if (pending === undefined || params.get("state") !== pending.state)
    throw authFailure(
      pending === undefined
        ? "No authorization is pending for the state that came back (finished already, older than 30 minutes, begun in another storage, or never sent)"
        : "The authorization came back with another state than the one sent: it is not the answer to this request",
      "state_mismatch",
    );
  // RFC 9207: an authorization server that names itself must be the one the request went to (a
  // mix-up attack sends the person's code from another server's page).
  const iss = params.get("iss");
  if (iss !== null && !sameIssuer(iss, pending.grant.issuer))
    throw authFailure(
      "The authorization came back from another authorization server (iss) than the one it was sent to",
      "untrusted_metadata",
    );
  const error = params.get("error");
  if (error !== null) {
    const description = redactText((params.get("error_description") ?? "").slice(0, 200), [pending.state]);
    throw authFailure(
      `The authorization server did not authorize: ${error.slice(0, 100)}${description === "" ? "" : ` (${description})`}`,
      error.slice(0, 100),
    );
  }
  const code = params.get("code");
  if (code === null || code === "")
    throw authFailure("The authorization came back without a code", "no_code");
  return code;
}

/** Whether a stored value is a {@link PendingAuthorization}. */
export function isPendingAuthorization(value: unknown): value is PendingAuthorization {
  if (typeof value !== "object" || value === null) return false;
  const { state, verifier, grant } = value as { state?: unknown; verifier?: unknown; grant?: unknown };
  return (
    typeof state === "string" && typeof verifier === "string" && typeof grant === "object" && grant !== null
  );
}
