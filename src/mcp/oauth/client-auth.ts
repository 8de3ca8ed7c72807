/**
 * How a client authenticates at the token endpoint (RFC 6749 §2.3, OAuth 2.1): `client_secret_basic`,
 * `client_secret_post` or `none`, chosen from what the client's registration says and what the
 * authorization server supports, and applied to a token request.
 *
 * @module
 */

import { base64OfText } from "./base64url.ts";

/** The token endpoint authentication methods Wisp speaks for a client with (or without) a secret. */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/** A client as the token endpoint knows it. */
export interface ClientCredentialsInfo {
  clientId: string;
  clientSecret?: string | undefined;
  /** The method its registration names, when it names one. */
  tokenEndpointAuthMethod?: string | undefined;
}

function isMethod(value: string | undefined): value is TokenEndpointAuthMethod {
  return value === "client_secret_basic" || value === "client_secret_post" || value === "none";
}

/**
 * The method to use: the registration's own when the server supports it (or lists none); else, with a
 * secret, `client_secret_basic` or `client_secret_post` as the server supports them; else `none`. With
 * no list from the server, a secret goes as `client_secret_basic` (RFC 6749's default).
 */
export function chooseAuthMethod(
  client: ClientCredentialsInfo,
  supported: string[] | undefined,
): TokenEndpointAuthMethod {
  const registered = client.tokenEndpointAuthMethod;
  if (isMethod(registered) && (supported === undefined || supported.includes(registered))) return registered;
  const hasSecret = client.clientSecret !== undefined && client.clientSecret !== "";
  if (!hasSecret) return "none";
  if (supported === undefined || supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return supported.includes("none") ? "none" : "client_secret_basic";
}

/**
 * Puts the client's credentials on a token request: an `Authorization: Basic` header (id and secret
 * form-encoded first, RFC 6749 §2.3.1), `client_id` and `client_secret` in the body, or `client_id` alone.
 */
export function applyClientAuth(
  method: TokenEndpointAuthMethod,
  client: ClientCredentialsInfo,
  headers: Headers,
  body: URLSearchParams,
): void {
  if (method === "client_secret_basic" && client.clientSecret !== undefined) {
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.set("authorization", `Basic ${base64OfText(pair)}`);
    return;
  }
  body.set("client_id", client.clientId);
  if (method === "client_secret_post" && client.clientSecret !== undefined)
    body.set("client_secret", client.clientSecret);
}

/** `application/x-www-form-urlencoded` encoding of one value, as HTTP Basic client credentials take it. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
