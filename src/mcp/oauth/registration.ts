/**
 * Dynamic client registration (RFC 7591): what Wisp registers — a name, the redirect URI, the
 * authorization-code and refresh-token grants, a token endpoint authentication method the server
 * supports — and the client id (and secret) it gets back.
 *
 * @module
 */

import type { TokenEndpointAuthMethod } from "./client-auth.ts";
import type { AuthorizationServer } from "./discovery.ts";
import { authFailure, describedRequest, oauthErrorOf } from "./oauth-failures.ts";

/** What the app says about itself when Wisp registers it (RFC 7591 §2). */
export interface McpClientMetadata {
  /** `client_name`, shown on the consent screen (default `"wisp-agent"`). */
  clientName?: string;
  /** `client_uri`: the app's home page. */
  clientUri?: string;
  /** `logo_uri`. */
  logoUri?: string;
  /** `contacts`. */
  contacts?: string[];
  /**
   * `token_endpoint_auth_method` to ask for (default: `none` when the server supports it — an app in a
   * browser or on someone's computer keeps no secret — else `client_secret_basic`, else `client_secret_post`).
   */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** A client as registered (plain JSON, kept in storage). */
export type ClientRegistration = {
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: string;
};

/** The method to register with: the app's choice, else one the server lists (`none` first). */
function registrationMethod(
  metadata: McpClientMetadata,
  supported: string[] | undefined,
): string | undefined {
  if (metadata.tokenEndpointAuthMethod !== undefined) return metadata.tokenEndpointAuthMethod;
  if (supported === undefined) return undefined;
  return ["none", "client_secret_basic", "client_secret_post"].find((method) => supported.includes(method));
}

/** Registers a client at the server's registration endpoint (RFC 7591) and returns its id and secret. */
export async function registerClient(
  server: AuthorizationServer,
  redirectUrl: string,
  metadata: McpClientMetadata,
  fetch: typeof globalThis.fetch,
  signal: AbortSignal,
): Promise<ClientRegistration> {
  const endpoint = server.registrationEndpoint;
  if (endpoint === undefined)
    throw authFailure("The authorization server offers no client registration", "no_client");
  const method = registrationMethod(metadata, server.tokenEndpointAuthMethods);
  const body: { [key: string]: unknown } = {
    client_name: metadata.clientName ?? "wisp-agent",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    ...(method === undefined ? {} : { token_endpoint_auth_method: method }),
    ...(metadata.clientUri === undefined ? {} : { client_uri: metadata.clientUri }),
    ...(metadata.logoUri === undefined ? {} : { logo_uri: metadata.logoUri }),
    ...(metadata.contacts === undefined ? {} : { contacts: metadata.contacts }),
  };
  const response = await fetch(endpoint, {
    // Never followed: a 307 would send the secrets in the body to wherever it points.
    redirect: "manual",
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  const shown = describedRequest("POST", endpoint);
  const text = await response.text();
  if (!response.ok) {
    const oauth = oauthErrorOf(text);
    throw authFailure(
      `The authorization server refused to register the client with ${response.status}${oauth === undefined ? "" : `: ${oauth.error}`} (POST ${shown.url})`,
      oauth?.error ?? "registration_failed",
      { status: response.status, request: shown },
    );
  }
  let parsed: { client_id?: unknown; client_secret?: unknown; token_endpoint_auth_method?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = {};
  }
  if (typeof parsed.client_id !== "string" || parsed.client_id === "")
    throw authFailure(
      `The client registration's answer has no client_id (POST ${shown.url})`,
      "registration_failed",
      {
        request: shown,
      },
    );
  const registration: ClientRegistration = { clientId: parsed.client_id };
  if (typeof parsed.client_secret === "string" && parsed.client_secret !== "")
    registration.clientSecret = parsed.client_secret;
  const registered = parsed.token_endpoint_auth_method;
  if (typeof registered === "string") registration.tokenEndpointAuthMethod = registered;
  else if (method !== undefined) registration.tokenEndpointAuthMethod = method;
  return registration;
}
