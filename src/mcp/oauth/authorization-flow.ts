/**
 * One authorization for one MCP server, end to end: discovery, the client, the scope and the
 * authorization URL (its pending record kept in storage), then — once the person is back — the
 * `state` check and the code exchanged for tokens, which are kept.
 *
 * @module
 */

import { beginAuthorization, codeFromCallback } from "./authorization-code.ts";
import { chooseAuthMethod } from "./client-auth.ts";
import { clientFor } from "./client-identity.ts";
import { checkPinnedIssuer, discoverAuthorizationServer, discoverResource } from "./discovery.ts";
import type { McpOAuthOptions } from "./mcp-oauth-options.ts";
import { authFailure } from "./oauth-failures.ts";
import { keepPending, takePending } from "./pending-authorizations.ts";
import { chooseScope } from "./scope-choice.ts";
import type { McpAuthStorage } from "./storage.ts";
import { writeTokens } from "./stored-tokens.ts";
import { exchangeCode, type TokenGrant } from "./token-grant.ts";
import type { BearerChallenge } from "./www-authenticate.ts";

/** The app's options and where the flow runs: the server, the storage, the network, the signal. */
export interface FlowContext {
  options: McpOAuthOptions;
  storage: McpAuthStorage;
  /** The MCP server's URL. */
  url: string;
  fetch: typeof globalThis.fetch;
  signal: AbortSignal;
}

/** The server's URL as a resource identifier (RFC 8707): without its fragment. */
function resourceOf(url: string): string {
  const parsed = new URL(url);
  parsed.hash = "";
  return parsed.href;
}

/**
 * Finds the authorization server and the client, chooses the scope, keeps the pending authorization
 * (PKCE verifier, `state`) in storage and returns the URL to send the person to. Throws a ProviderError
 * `AUTH` when the server's metadata forbids going on (`resource_mismatch`, no PKCE S256, no client).
 */
export async function startAuthorization(challenge: BearerChallenge, context: FlowContext): Promise<string> {
  const { options, url, fetch, signal } = context;
  const resource = await discoverResource(url, challenge.resourceMetadata, { fetch, signal });
  const server = await discoverAuthorizationServer(url, resource, { fetch, signal });
  checkPinnedIssuer(server, options.client?.issuer);
  if (!server.fallback && !(server.codeChallengeMethods ?? []).includes("S256"))
    throw authFailure(
      "The authorization server does not say it supports PKCE with S256 (code_challenge_methods_supported), which MCP requires",
      "pkce_unsupported",
    );
  const client = await clientFor(server, {
    client: options.client,
    clientMetadataUrl: options.clientMetadataUrl,
    clientMetadata: options.clientMetadata,
    redirectUrl: options.redirectUrl,
    storage: context.storage,
    url,
    fetch,
    signal,
  });
  const grant: TokenGrant = {
    tokenEndpoint: server.tokenEndpoint,
    resource: resource?.resource ?? resourceOf(url),
    issuer: server.issuer,
    client,
    authMethod: chooseAuthMethod(client, server.tokenEndpointAuthMethods),
  };
  const scope = chooseScope(
    challenge.scope,
    options.scope,
    resource?.scopesSupported,
    server.scopesSupported,
  );
  const { pending, authorizationUrl } = await beginAuthorization({
    authorizationEndpoint: server.authorizationEndpoint,
    redirectUrl: options.redirectUrl,
    grant,
    scope,
  });
  await keepPending(context.storage, url, pending);
  return authorizationUrl;
}

/**
 * Completes the pending authorization whose `state` came back in the URL the person returned to:
 * exchanges the code (with the PKCE verifier and `resource`) and keeps the tokens. The pending record
 * is used once (even when the server's answer is an error); a `state` that matches none leaves every
 * pending one in place (it is not the answer to any).
 */
export async function completeAuthorization(callbackUrl: string, context: FlowContext): Promise<void> {
  const pending = await takePending(context.storage, context.url, callbackUrl);
  const code = codeFromCallback(callbackUrl, pending);
  if (pending === undefined) return; // codeFromCallback refused it already
  const tokens = await exchangeCode(
    pending.grant,
    { code, verifier: pending.verifier, redirectUrl: pending.redirectUrl },
    context.fetch,
    context.signal,
  );
  await writeTokens(context.storage, context.url, { tokens, grant: pending.grant });
}
