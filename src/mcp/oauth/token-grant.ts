/**
 * The grants Wisp asks a token endpoint for on behalf of an MCP server: the authorization code (with
 * the PKCE verifier), the refresh token, and what they share — the endpoint, the `resource` (RFC 8707)
 * and the client's authentication — kept as one plain-JSON {@link TokenGrant} beside the tokens.
 *
 * @module
 */

import { applyClientAuth, type TokenEndpointAuthMethod } from "./client-auth.ts";
import type { ClientRegistration } from "./registration.ts";
import { requestToken, type TokenSet } from "./token-request.ts";

/** Where and as whom tokens for one server are asked for (plain JSON, kept in storage). */
export type TokenGrant = {
  tokenEndpoint: string;
  /** The `resource` parameter: the MCP server's resource identifier. */
  resource: string;
  /** The authorization server's issuer. */
  issuer: string;
  client: ClientRegistration;
  authMethod: TokenEndpointAuthMethod;
};

/** Tokens and how to renew them, as stored for one server. */
export type StoredTokens = { tokens: TokenSet; grant: TokenGrant };

/** Sends a grant of `grant`'s client for its resource: `params` plus `resource` and the client's authentication. */
export function sendGrant(
  grant: TokenGrant,
  params: Record<string, string>,
  fetch: typeof globalThis.fetch,
  signal: AbortSignal,
): Promise<TokenSet> {
  const body = new URLSearchParams(params);
  body.set("resource", grant.resource);
  const headers = new Headers();
  applyClientAuth(grant.authMethod, grant.client, headers, body);
  return requestToken({ endpoint: grant.tokenEndpoint, body, headers }, fetch, signal);
}

/** Exchanges an authorization code (RFC 6749 §4.1.3) with its PKCE verifier. */
export function exchangeCode(
  grant: TokenGrant,
  code: { code: string; verifier: string; redirectUrl: string },
  fetch: typeof globalThis.fetch,
  signal: AbortSignal,
): Promise<TokenSet> {
  return sendGrant(
    grant,
    {
      grant_type: "authorization_code",
      code: code.code,
      code_verifier: code.verifier,
      redirect_uri: code.redirectUrl,
    },
    fetch,
    signal,
  );
}

/**
 * Renews tokens with a refresh token (RFC 6749 §6). A server that sends no new refresh token leaves
 * the old one in force (OAuth 2.1 §4.3.3), so it is kept.
 */
export async function refreshTokens(
  stored: StoredTokens & { tokens: { refreshToken: string } },
  fetch: typeof globalThis.fetch,
  signal: AbortSignal,
): Promise<TokenSet> {
  const refreshToken = stored.tokens.refreshToken;
  const tokens = await sendGrant(
    stored.grant,
    { grant_type: "refresh_token", refresh_token: refreshToken },
    fetch,
    signal,
  );
  return tokens.refreshToken === undefined ? { ...tokens, refreshToken } : tokens;
}
