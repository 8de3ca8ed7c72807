/**
 * The options of `mcpOAuth` and `finishMcpOAuth`, their check, and the default storage: one memory
 * storage per options object, so `finishMcpOAuth` given the same options finds what `mcpOAuth` kept.
 *
 * @module
 */

import type { ConfigError } from "../../errors/sdk-error.ts";
import type { TokenEndpointAuthMethod } from "./client-auth.ts";
import { authOptionFailure } from "./oauth-failures.ts";
import type { McpClientMetadata } from "./registration.ts";
import { isSecureEndpoint } from "./secure-endpoint.ts";
import { type McpAuthStorage, memoryAuthStorage } from "./storage.ts";

/** What the app's `authorize` function is given besides the URL. */
export interface McpAuthorizeContext {
  /** Aborted when connecting is (give up waiting for the person). */
  signal: AbortSignal;
}

/** A client registered with the authorization server beforehand. */
export interface McpPreRegisteredClient {
  /** The id the authorization server gave this client when it was registered. */
  clientId: string;
  /** Its secret, for a confidential client (a server-side app); never in errors or logs. */
  clientSecret?: string;
  /** How it authenticates at the token endpoint (default: from its secret and what the server supports). */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /**
   * The authorization server's issuer it is registered with: another one is refused before its secret
   * is sent (recommended for a client with a secret).
   */
  issuer?: string;
}

/** Options of {@link mcpOAuth}: OAuth 2.1 authorization code with PKCE for servers that ask for it. */
export interface McpOAuthOptions {
  /** The redirect URI registered (or to register) with the authorization server, where the person comes back. */
  redirectUrl: string;
  /**
   * Takes the person to `authorizationUrl` (opens a popup, prints it in a CLI and waits on a loopback
   * server, …) and resolves with the full URL they came back to (with `code` and `state`). Resolve with
   * undefined when they come back to another request or page (a Worker's callback route, a page that
   * navigated away): connecting then fails with a ProviderError code `"AUTH"`, `providerCode`
   * `"authorization_required"`, and `error.details.authorizationUrl` is where to send them; the PKCE
   * verifier and `state` are kept in `storage` until {@link finishMcpOAuth} completes it. Without
   * `authorize`, every authorization ends that way.
   */
  authorize?: (authorizationUrl: string, context: McpAuthorizeContext) => Promise<string | undefined>;
  /**
   * Where tokens, client registrations, and a pending authorization's verifier and `state` are kept,
   * by server URL (default: in memory, one storage per options object).
   */
  storage?: McpAuthStorage;
  /** A pre-registered client: used before a client ID metadata document or a dynamic registration. */
  client?: McpPreRegisteredClient;
  /**
   * The HTTPS URL of this app's client ID metadata document (CIMD): used as `client_id` when the
   * authorization server says `client_id_metadata_document_supported`. Plain http is taken only on
   * loopback (a local authorization server); anything else is a ConfigError at `auth.clientMetadataUrl`.
   */
  clientMetadataUrl?: string;
  /** What to register about this app when the server offers dynamic client registration. */
  clientMetadata?: McpClientMetadata;
  /**
   * The scope to ask for when the server's challenge names none (used before the resource metadata's
   * `scopes_supported`; default: those, else none).
   */
  scope?: string;
  /** The fetch for the authorization server (default: the connection's `fetch`). */
  fetch?: typeof globalThis.fetch;
}

const defaultStorages = new WeakMap<object, McpAuthStorage>();

/** The options' storage, or the memory storage that belongs to this options object. */
export function storageOf(options: McpOAuthOptions): McpAuthStorage {
  if (options.storage !== undefined) return options.storage;
  let storage = defaultStorages.get(options);
  if (storage === undefined) {
    storage = memoryAuthStorage();
    defaultStorages.set(options, storage);
  }
  return storage;
}

/** Whether `value` is a string `new URL` takes. */
export function isUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** The first problem with `mcpOAuth`'s options, or undefined. */
export function checkOAuthOptions(options: McpOAuthOptions): ConfigError | undefined {
  if (typeof options !== "object" || options === null)
    return authOptionFailure("mcpOAuth needs options with a redirectUrl", "auth");
  if (!isUrl(options.redirectUrl))
    return authOptionFailure(
      "mcpOAuth: redirectUrl must be a URL (the redirect URI registered)",
      "auth.redirectUrl",
    );
  if (options.authorize !== undefined && typeof options.authorize !== "function")
    return authOptionFailure("mcpOAuth: authorize must be a function", "auth.authorize");
  const storage = options.storage as Partial<McpAuthStorage> | undefined;
  if (
    storage !== undefined &&
    (typeof storage?.get !== "function" ||
      typeof storage.set !== "function" ||
      typeof storage.delete !== "function")
  )
    return authOptionFailure("mcpOAuth: storage must have get, set and delete", "auth.storage");
  const client = options.client;
  if (client !== undefined && (typeof client?.clientId !== "string" || client.clientId === ""))
    return authOptionFailure("mcpOAuth: client.clientId must be a string", "auth.client.clientId");
  if (client?.issuer !== undefined && !isUrl(client.issuer))
    return authOptionFailure("mcpOAuth: client.issuer must be the issuer's URL", "auth.client.issuer");
  if (options.clientMetadataUrl !== undefined && !isSecureEndpoint(String(options.clientMetadataUrl)))
    return authOptionFailure(
      "mcpOAuth: clientMetadataUrl must be an https URL (http only on loopback)",
      "auth.clientMetadataUrl",
    );
  if (options.scope !== undefined && typeof options.scope !== "string")
    return authOptionFailure("mcpOAuth: scope must be a string", "auth.scope");
  if (options.fetch !== undefined && typeof options.fetch !== "function")
    return authOptionFailure("mcpOAuth: fetch must be a function", "auth.fetch");
  return undefined;
}
