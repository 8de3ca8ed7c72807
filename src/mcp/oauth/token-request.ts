/**
 * Token endpoint requests (RFC 6749 §3.2, OAuth 2.1): a form POST with the client's authentication,
 * and the answer read into a {@link TokenSet} — or a ProviderError `AUTH` carrying the OAuth error code
 * (`invalid_grant`, `invalid_client`, …), never the body itself.
 *
 * @module
 */

import { redactText } from "../../errors/redact.ts";
import { authFailure, describedRequest, oauthErrorOf } from "./oauth-failures.ts";

/** Tokens as Wisp keeps them (plain JSON; epoch-ms expiry). */
export type TokenSet = {
  accessToken: string;
  /** `Bearer` (the only type MCP uses). */
  tokenType: string;
  refreshToken?: string;
  /** When the access token expires, epoch ms, when the server said (`expires_in`). */
  expiresAt?: number;
  /** The scope granted, when the server said. */
  scope?: string;
};

/** A token request ready to send: where, the form, and the headers (client authentication included). */
export interface TokenRequest {
  endpoint: string;
  body: URLSearchParams;
  headers: Headers;
}

/** The most text a token answer may take. */
const MAX_TOKEN_ANSWER_CHARS = 256 * 1024;

/**
 * POSTs a token request and reads the tokens. A refusal is a ProviderError `AUTH` with the server's
 * OAuth error in `providerCode`; a network failure is thrown as it comes (the caller classifies it).
 */
export async function requestToken(
  request: TokenRequest,
  fetch: typeof globalThis.fetch,
  signal: AbortSignal,
): Promise<TokenSet> {
  request.headers.set("content-type", "application/x-www-form-urlencoded");
  request.headers.set("accept", "application/json");
  const response = await fetch(request.endpoint, {
    // Never followed: a 307 would send the secrets in the body to wherever it points.
    redirect: "manual",
    method: "POST",
    headers: request.headers,
    body: request.body.toString(),
    signal,
  });
  const shown = describedRequest("POST", request.endpoint);
  const text = (await response.text()).slice(0, MAX_TOKEN_ANSWER_CHARS);
  if (!response.ok) {
    const oauth = oauthErrorOf(text);
    // What the server says may quote what it was sent (the code, a refresh token, the client's secret).
    const sent = [...request.body.values(), request.headers.get("authorization") ?? ""];
    const said =
      oauth === undefined
        ? ""
        : redactText(`: ${oauth.error}${oauth.description === "" ? "" : ` (${oauth.description})`}`, [
            ...sent,
            ...sent.map((value) => value.replace(/^Basic /, "")),
          ]);
    return Promise.reject(
      authFailure(
        `The authorization server refused the token request (${request.body.get("grant_type")}) with ${response.status}${said} (POST ${shown.url})`,
        oauth?.error ?? "token_request_failed",
        { status: response.status, request: shown },
      ),
    );
  }
  return tokensOf(text, shown.url);
}

function tokensOf(text: string, shownUrl: string): TokenSet {
  let parsed: { [key: string]: unknown };
  try {
    parsed = JSON.parse(text) as { [key: string]: unknown };
  } catch {
    throw authFailure(
      `The token endpoint answered with something that is not JSON (POST ${shownUrl})`,
      "invalid_token_response",
    );
  }
  const { access_token: accessToken, token_type: tokenType, refresh_token, expires_in, scope } = parsed;
  if (typeof accessToken !== "string" || accessToken === "")
    throw authFailure(
      `The token endpoint's answer has no access_token (POST ${shownUrl})`,
      "invalid_token_response",
    );
  const tokens: TokenSet = { accessToken, tokenType: typeof tokenType === "string" ? tokenType : "Bearer" };
  if (typeof refresh_token === "string" && refresh_token !== "") tokens.refreshToken = refresh_token;
  if (typeof expires_in === "number" && Number.isFinite(expires_in) && expires_in > 0)
    tokens.expiresAt = Date.now() + expires_in * 1000;
  if (typeof scope === "string") tokens.scope = scope;
  return tokens;
}

/** Whether a stored value is a {@link TokenSet}. */
export function isTokenSet(value: unknown): value is TokenSet {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { accessToken?: unknown }).accessToken === "string"
  );
}
