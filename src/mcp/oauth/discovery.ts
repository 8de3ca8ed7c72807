/**
 * Finding where to authorize: the protected resource metadata (RFC 9728) of an MCP server — from the
 * `resource_metadata` of its challenge, else its path-based and root well-known URLs — and the
 * authorization server's metadata (RFC 8414 and OpenID Connect Discovery, in the MCP spec's order),
 * with the 2025-03-26 fallback (`/authorize`, `/token`, `/register` at the server's origin) when a
 * server publishes neither.
 *
 * @module
 */

import { safeUrl } from "../../http/safe-url.ts";
import type { JsonObject } from "../../types.ts";
import { authFailure } from "./oauth-failures.ts";
import { isSecureEndpoint } from "./secure-endpoint.ts";

/** What an MCP server says of itself as a protected resource (RFC 9728), the fields Wisp reads. */
export interface ResourceMetadata {
  /** The resource identifier: the `resource` parameter of authorization and token requests. */
  resource: string;
  /** The authorization servers' issuer URLs (Wisp uses the first). */
  authorizationServers: string[];
  /** The scopes the resource knows, when it lists them. */
  scopesSupported?: string[];
}

/** An authorization server's endpoints and abilities, the fields Wisp reads. */
export interface AuthorizationServer {
  /** Its issuer URL (the audience of a JWT client assertion). */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  scopesSupported?: string[];
  tokenEndpointAuthMethods?: string[];
  codeChallengeMethods?: string[];
  /** Whether it takes a client ID metadata document's URL as `client_id` (CIMD). */
  clientIdMetadataDocuments: boolean;
  /** True when no metadata was published and the 2025-03-26 default endpoints are used. */
  fallback: boolean;
}

/** How discovery reaches the network. */
export interface DiscoveryContext {
  fetch: typeof globalThis.fetch;
  signal: AbortSignal;
}

/** GETs `url` as JSON: the object, or undefined for an error status or an answer that is not a JSON object. */
async function getJson(url: string, context: DiscoveryContext): Promise<JsonObject | undefined> {
  const response = await context.fetch(url, {
    method: "GET",
    headers: { accept: "application/json" },
    signal: context.signal,
    redirect: "manual", // a redirect is no metadata: nothing is followed to where a server points
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  try {
    const value: unknown = await response.json();
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

/** The well-known URL `name` for `url` with its path appended (RFC 8414 §3.1, RFC 9728 §3.1). */
function wellKnown(url: URL, name: string, withPath: boolean): string {
  const path = url.pathname.replace(/\/+$/, "");
  return new URL(`/.well-known/${name}${withPath ? path : ""}`, url.origin).href;
}

/**
 * Whether `resource` (from the metadata) may stand for the server at `serverUrl`: the same origin,
 * and its path the server's path or a parent of it (RFC 8707 lets one resource cover a path).
 */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  const server = new URL(serverUrl);
  if (named.origin !== server.origin) return false;
  const base = named.pathname.endsWith("/") ? named.pathname : `${named.pathname}/`;
  const path = server.pathname.endsWith("/") ? server.pathname : `${server.pathname}/`;
  return path.startsWith(base);
}

/**
 * The server's protected resource metadata: at the challenge's `resource_metadata` when given, else
 * at `/.well-known/oauth-protected-resource<path>`, else at the root one. Undefined when none is
 * published (a 2025-03-26 server). Throws a ProviderError `resource_mismatch` when the metadata names
 * another resource, so no token for this server is ever asked for on another's behalf.
 */
export async function discoverResource(
  serverUrl: string,
  challengeUrl: string | undefined,
  context: DiscoveryContext,
): Promise<ResourceMetadata | undefined> {
  const server = new URL(serverUrl);
  const candidates: string[] = [];
  if (challengeUrl !== undefined) {
    try {
      candidates.push(new URL(challengeUrl, server).href);
    } catch {
      // not a URL: the well-known locations below
    }
  }
  // At the root, the path-appended location is the root one (the Set below keeps it once).
  candidates.push(wellKnown(server, "oauth-protected-resource", true));
  candidates.push(wellKnown(server, "oauth-protected-resource", false));
  for (const url of [...new Set(candidates)]) {
    const metadata = await getJson(url, context);
    if (metadata === undefined) continue;
    const servers = strings(metadata.authorization_servers) ?? [];
    const resource = typeof metadata.resource === "string" ? metadata.resource : server.href;
    if (!resourceCovers(resource, server.href))
      throw authFailure(
        `The MCP server's protected resource metadata names another resource (${safeUrl(resource)}) than ${safeUrl(server.href)}; Wisp does not authorize for it`,
        "resource_mismatch",
        {
          details: {
            resource: safeUrl(resource),
            metadataUrl: safeUrl(url),
          },
        },
      );
    const found: ResourceMetadata = { resource, authorizationServers: servers };
    const scopes = strings(metadata.scopes_supported);
    if (scopes !== undefined) found.scopesSupported = scopes;
    return found;
  }
  return undefined;
}

/** The metadata URLs of an issuer, in the MCP spec's order (OAuth first, then OpenID Connect). */
function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  if (url.pathname === "/")
    return [
      wellKnown(url, "oauth-authorization-server", false),
      wellKnown(url, "openid-configuration", false),
    ];
  const path = url.pathname.replace(/\/+$/, "");
  return [
    wellKnown(url, "oauth-authorization-server", true),
    wellKnown(url, "openid-configuration", true),
    new URL(`${path}/.well-known/openid-configuration`, url.origin).href,
  ];
}

/** An issuer URL as RFC 8414 compares it: exactly, but for a trailing slash. */
export const sameIssuer = (a: string, b: string): boolean => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * Whether metadata fetched for `issuer` may claim to be `claimed`: exactly that issuer when resource
 * metadata named it; when it was only the MCP server's origin (2025-03-26, no resource metadata), an
 * issuer on that same origin (such servers publish one under a path, `/oauth`).
 */
function claimable(claimed: string, issuer: string, named: boolean): boolean {
  if (sameIssuer(claimed, issuer)) return true;
  try {
    return !named && new URL(claimed).origin === new URL(issuer).origin;
  } catch {
    return false;
  }
}

/**
 * The metadata's endpoints, once it proved to be the issuer's (RFC 8414 §3.3: its `issuer` is the one
 * the metadata URL was made from; see {@link claimable}) with endpoints a secret may go to. A hostile MCP server naming a
 * metadata document that claims another issuer, or a `javascript:` or plain-http endpoint, is refused.
 */
function serverOf(metadata: JsonObject, issuer: string, named: boolean): AuthorizationServer | undefined {
  const {
    authorization_endpoint: authorize,
    token_endpoint: token,
    registration_endpoint: register,
  } = metadata;
  if (typeof authorize !== "string" || typeof token !== "string") return undefined;
  const shown = safeUrl(issuer);
  if (typeof metadata.issuer === "string" && !claimable(metadata.issuer, issuer, named))
    throw authFailure(
      `The authorization server metadata fetched for ${shown} names another issuer (${safeUrl(metadata.issuer)}); Wisp sends it nothing`,
      "untrusted_metadata",
      { details: { issuer: shown } },
    );
  const endpoints = typeof register === "string" ? [authorize, token, register] : [authorize, token];
  const insecure = endpoints.find((endpoint) => !isSecureEndpoint(endpoint));
  if (insecure !== undefined)
    throw authFailure(
      `The authorization server ${shown} names an endpoint that is not https (${safeUrl(insecure)}); Wisp sends codes and secrets only over https (or http on loopback)`,
      "untrusted_metadata",
      { details: { issuer: shown } },
    );
  const found: AuthorizationServer = {
    issuer: typeof metadata.issuer === "string" ? metadata.issuer : issuer,
    authorizationEndpoint: authorize,
    tokenEndpoint: token,
    clientIdMetadataDocuments: metadata.client_id_metadata_document_supported === true,
    fallback: false,
  };
  if (typeof register === "string") found.registrationEndpoint = register;
  const scopes = strings(metadata.scopes_supported);
  if (scopes !== undefined) found.scopesSupported = scopes;
  const methods = strings(metadata.token_endpoint_auth_methods_supported);
  if (methods !== undefined) found.tokenEndpointAuthMethods = methods;
  const challenges = strings(metadata.code_challenge_methods_supported);
  if (challenges !== undefined) found.codeChallengeMethods = challenges;
  return found;
}

/** The 2025-03-26 default endpoints at the origin of `base`, for a server that publishes no metadata. */
function fallbackServer(base: string): AuthorizationServer {
  const origin = new URL(base).origin;
  return {
    issuer: origin,
    authorizationEndpoint: `${origin}/authorize`,
    tokenEndpoint: `${origin}/token`,
    registrationEndpoint: `${origin}/register`,
    clientIdMetadataDocuments: false,
    fallback: true,
  };
}

/**
 * Refuses an authorization server that is not `pinned` (the issuer a pre-registered client's secret or
 * key belongs to): a server naming another one never gets that secret, or a JWT made for it.
 */
export function checkPinnedIssuer(server: AuthorizationServer, pinned: string | undefined): void {
  if (pinned === undefined || sameIssuer(server.issuer, pinned)) return;
  throw authFailure(
    `The MCP server's authorization server is ${safeUrl(server.issuer)}, not ${safeUrl(pinned)} that this client's credentials are for; Wisp sends them nothing`,
    "untrusted_metadata",
    { details: { issuer: safeUrl(server.issuer) } },
  );
}

/**
 * The authorization server of `resource` (its first `authorization_servers` entry), or, for a server
 * without resource metadata, the server's origin — with the 2025-03-26 default endpoints when that
 * publishes no metadata either. Throws a ProviderError `discovery_failed` when an authorization
 * server named by the resource metadata publishes none.
 */
export async function discoverAuthorizationServer(
  serverUrl: string,
  resource: ResourceMetadata | undefined,
  context: DiscoveryContext,
): Promise<AuthorizationServer> {
  const issuer = resource?.authorizationServers[0] ?? new URL(serverUrl).origin;
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const metadata = await getJson(url, context);
    const found = metadata === undefined ? undefined : serverOf(metadata, issuer, resource !== undefined);
    if (found === undefined) continue;
    return found;
  }
  if (resource === undefined) return fallbackServer(serverUrl);
  throw authFailure(
    `The authorization server ${safeUrl(issuer)} of the MCP server publishes no metadata (RFC 8414 or OpenID Connect)`,
    "discovery_failed",
    { details: { issuer: safeUrl(issuer) } },
  );
}
