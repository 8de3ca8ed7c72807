/**
 * Which client Wisp is at an authorization server, in the MCP spec's order: a pre-registered client
 * (the app's `client`), a client ID metadata document (its URL as `client_id`, when the server says
 * `client_id_metadata_document_supported`), a registration kept from before, a new dynamic registration.
 *
 * @module
 */

import type { JsonValue } from "../../types.ts";
import type { AuthorizationServer } from "./discovery.ts";
import { authFailure } from "./oauth-failures.ts";
import { type ClientRegistration, type McpClientMetadata, registerClient } from "./registration.ts";
import { type McpAuthStorage, storageKey } from "./storage.ts";

/** What decides the client: the app's options, where registrations are kept, and the network. */
export interface ClientIdentityOptions {
  client?: ClientRegistration | undefined;
  clientMetadataUrl?: string | undefined;
  clientMetadata?: McpClientMetadata | undefined;
  redirectUrl: string;
  storage: McpAuthStorage;
  /** The MCP server's URL: registrations are kept per server and authorization server. */
  url: string;
  fetch: typeof globalThis.fetch;
  signal: AbortSignal;
}

function isRegistration(value: JsonValue | undefined): value is ClientRegistration {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { clientId?: unknown }).clientId === "string"
  );
}

/**
 * The client to authorize as at `server`. Throws a ProviderError `no_client` when there is none: no
 * pre-registered client, no CIMD the server takes, and no registration endpoint.
 */
export async function clientFor(
  server: AuthorizationServer,
  options: ClientIdentityOptions,
): Promise<ClientRegistration> {
  if (options.client !== undefined) return options.client;
  if (options.clientMetadataUrl !== undefined && server.clientIdMetadataDocuments)
    return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none" };
  const key = storageKey("client", options.url, server.issuer);
  const kept = await options.storage.get(key);
  if (isRegistration(kept)) return kept;
  if (server.registrationEndpoint === undefined)
    throw authFailure(
      "The authorization server offers no client registration and takes no client ID metadata document: give mcpOAuth a pre-registered client",
      "no_client",
    );
  const registration = await registerClient(
    server,
    options.redirectUrl,
    options.clientMetadata ?? {},
    options.fetch,
    options.signal,
  );
  await options.storage.set(key, registration);
  return registration;
}
