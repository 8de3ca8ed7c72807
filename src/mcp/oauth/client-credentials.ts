/**
 * `mcpClientCredentials`: the client credentials grant (OAuth 2.1 §4.2, the MCP extension SEP-1046)
 * for a program acting as itself, with no person to ask — authenticated by a client secret
 * (`client_secret_basic` or `client_secret_post`) or by `private_key_jwt`, a JWT signed with WebCrypto.
 *
 * @module
 */

import { classifyThrown } from "../../errors/classify.ts";
import { isSdkError } from "../../errors/sdk-error.ts";
import type { McpAuth, McpAuthContext } from "../mcp-auth.ts";
import { MCP_PROVIDER } from "../mcp-failures.ts";
import { chooseAuthMethod } from "./client-auth.ts";
import {
  type AuthorizationServer,
  checkPinnedIssuer,
  discoverAuthorizationServer,
  discoverResource,
} from "./discovery.ts";
import {
  importSigningKey,
  JWT_ASSERTION_TYPE,
  type JwtAlgorithm,
  signClientAssertion,
} from "./jwt-assertion.ts";
import { authOptionFailure } from "./oauth-failures.ts";
import type { ClientRegistration } from "./registration.ts";
import { chooseScope } from "./scope-choice.ts";
import { sendGrant, type TokenGrant } from "./token-grant.ts";
import { requestToken, type TokenSet } from "./token-request.ts";
import { readBearerChallenge } from "./www-authenticate.ts";

/** A client that authenticates with its secret. */
export interface McpClientSecretCredentials {
  /** The client's id at the authorization server. */
  clientId: string;
  /** The client's secret: sent to the token endpoint only, never in errors or records. */
  clientSecret: string;
  /**
   * The authorization server's issuer the client is registered with: another one is refused before
   * the secret is sent (recommended: otherwise the MCP server's metadata decides where it goes).
   */
  issuer?: string;
  /** How the secret is sent (default: `client_secret_basic`, or `client_secret_post` when that is all the server supports). */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
}

/** A client that authenticates with a signed JWT (`private_key_jwt`). */
export interface McpPrivateKeyCredentials {
  /** The client's id at the authorization server (the JWT's `iss` and `sub`). */
  clientId: string;
  /**
   * The authorization server's issuer the key is registered with: another one is refused before a JWT
   * is made (recommended: otherwise the MCP server's metadata names the JWT's audience).
   */
  issuer?: string;
  /** A PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) or a CryptoKey that can sign. Never in errors. */
  privateKey: string | CryptoKey;
  /** The JWS algorithm (default `ES256`, or what a CryptoKey's algorithm implies). */
  algorithm?: JwtAlgorithm;
}

/** Options of {@link mcpClientCredentials} besides the credentials. */
export interface McpClientCredentialsOptions {
  /** The scope to ask for when the server's challenge names none (default: the resource's `scopes_supported`). */
  scope?: string;
  /** The fetch for the authorization server (default: the connection's). */
  fetch?: typeof globalThis.fetch;
}

/** The JWS algorithm a CryptoKey implies, when it implies one. */
function algorithmOfKey(key: CryptoKey): JwtAlgorithm | undefined {
  const algorithm = key.algorithm as { name: string; namedCurve?: string; hash?: { name?: string } };
  if (algorithm.name === "Ed25519") return "EdDSA";
  if (algorithm.name === "ECDSA") {
    const curve = algorithm.namedCurve;
    return curve === "P-384" ? "ES384" : curve === "P-521" ? "ES512" : "ES256";
  }
  const bits = algorithm.hash?.name?.replace("SHA-", "") ?? "256";
  if (algorithm.name === "RSA-PSS") return `PS${bits}` as JwtAlgorithm;
  if (algorithm.name === "RSASSA-PKCS1-v1_5") return `RS${bits}` as JwtAlgorithm;
  return undefined;
}

/** The machinery behind {@link mcpClientCredentials}. */
class McpClientCredentials implements McpAuth {
  readonly #credentials: McpClientSecretCredentials | McpPrivateKeyCredentials;
  readonly #options: McpClientCredentialsOptions;
  readonly #tokens = new Map<string, TokenSet>();
  #key: Promise<CryptoKey> | undefined;

  constructor(
    credentials: McpClientSecretCredentials | McpPrivateKeyCredentials,
    options: McpClientCredentialsOptions,
  ) {
    this.#credentials = credentials;
    this.#options = options;
  }

  async authorization(context: McpAuthContext): Promise<string | undefined> {
    const tokens = this.#tokens.get(context.url);
    if (tokens === undefined) return undefined;
    if (tokens.expiresAt !== undefined && Date.now() > tokens.expiresAt - 30_000) {
      this.#tokens.delete(context.url);
      return undefined; // the server refuses, and a new token is asked for
    }
    return `Bearer ${tokens.accessToken}`;
  }

  async refused(response: Response, context: McpAuthContext): Promise<boolean> {
    const challenge = readBearerChallenge(response.headers.get("www-authenticate"));
    if (response.status === 403 && challenge.error !== "insufficient_scope") return false;
    try {
      const credentials = this.#credentials;
      if (typeof credentials?.clientId !== "string" || credentials.clientId === "")
        throw authOptionFailure("mcpClientCredentials needs a clientId", "auth.clientId");
      const fetch = this.#options.fetch ?? context.fetch;
      const { signal, url } = context;
      const resource = await discoverResource(url, challenge.resourceMetadata, { fetch, signal });
      const server = await discoverAuthorizationServer(url, resource, { fetch, signal });
      checkPinnedIssuer(server, credentials.issuer);
      const params: Record<string, string> = { grant_type: "client_credentials" };
      const scope = chooseScope(challenge.scope, this.#options.scope, resource?.scopesSupported, undefined);
      if (scope !== undefined) params.scope = scope;
      const resourceId = resource?.resource ?? url.split("#")[0] ?? url;
      const tokens =
        "privateKey" in credentials
          ? await this.#withAssertion(credentials, server, resourceId, params, fetch, signal)
          : await sendGrant(this.#secretGrant(credentials, server, resourceId), params, fetch, signal);
      this.#tokens.set(url, tokens);
      return true;
    } catch (error) {
      throw isSdkError(error)
        ? error
        : classifyThrown(error, { provider: MCP_PROVIDER, signal: context.signal });
    }
  }

  #secretGrant(
    credentials: McpClientSecretCredentials,
    server: AuthorizationServer,
    resource: string,
  ): TokenGrant {
    if (typeof credentials.clientSecret !== "string" || credentials.clientSecret === "")
      throw authOptionFailure(
        "mcpClientCredentials needs a clientSecret or a privateKey",
        "auth.clientSecret",
      );
    const client: ClientRegistration = {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
    };
    if (credentials.tokenEndpointAuthMethod !== undefined)
      client.tokenEndpointAuthMethod = credentials.tokenEndpointAuthMethod;
    const method = chooseAuthMethod(client, server.tokenEndpointAuthMethods);
    return {
      tokenEndpoint: server.tokenEndpoint,
      resource,
      issuer: server.issuer,
      client,
      authMethod: method === "none" ? "client_secret_basic" : method,
    };
  }

  async #withAssertion(
    credentials: McpPrivateKeyCredentials,
    server: AuthorizationServer,
    resource: string,
    params: Record<string, string>,
    fetch: typeof globalThis.fetch,
    signal: AbortSignal,
  ): Promise<TokenSet> {
    const { privateKey } = credentials;
    const algorithm =
      credentials.algorithm ??
      (typeof privateKey === "string" ? "ES256" : (algorithmOfKey(privateKey) ?? "ES256"));
    if (typeof privateKey === "string") {
      this.#key ??= importSigningKey(privateKey, algorithm).catch((error: unknown) => {
        this.#key = undefined;
        throw authOptionFailure(
          `mcpClientCredentials: the private key cannot be used for ${algorithm} (${error instanceof Error ? error.name : "unknown"})`,
          "auth.privateKey",
        );
      });
    }
    const key = typeof privateKey === "string" ? await (this.#key as Promise<CryptoKey>) : privateKey;
    const assertion = await signClientAssertion(key, algorithm, {
      clientId: credentials.clientId,
      audience: server.issuer,
    });
    const body = new URLSearchParams(params);
    body.set("resource", resource);
    body.set("client_id", credentials.clientId);
    body.set("client_assertion_type", JWT_ASSERTION_TYPE);
    body.set("client_assertion", assertion);
    return requestToken({ endpoint: server.tokenEndpoint, body, headers: new Headers() }, fetch, signal);
  }
}

/**
 * Client credentials for a program talking to an MCP server as itself (no person, no redirect), as the
 * `auth` of `connectMcp`. On a 401 Wisp discovers the authorization server as `mcpOAuth` does and asks
 * for a token with `grant_type=client_credentials` and `resource`, authenticating with `clientSecret`
 * (`client_secret_basic`, or `client_secret_post` when that is all the server supports) or with
 * `privateKey` (`private_key_jwt`: a JWT signed with WebCrypto, `aud` the issuer). Tokens stay in
 * memory; secrets and keys never appear in errors.
 *
 * @example
 * ```ts
 * const mcp = await connectMcp({
 *   url: "https://reports.example.com/mcp",
 *   auth: mcpClientCredentials({ clientId: "nightly-job", privateKey: env.JOB_KEY_PEM, algorithm: "ES256" }),
 * });
 * ```
 */
export function mcpClientCredentials(
  credentials: McpClientSecretCredentials | McpPrivateKeyCredentials,
  options: McpClientCredentialsOptions = {},
): McpAuth {
  return new McpClientCredentials(credentials, options);
}
