/**
 * `mcpOAuth`: OAuth 2.1 for remote MCP servers (the MCP authorization spec, 2025-06-18 and 2025-11-25,
 * with the 2025-03-26 fallbacks) as the `auth` of `connectMcp`; and `finishMcpOAuth`, which completes
 * an authorization the person came back from on another request or page.
 *
 * @module
 */

import type { Result } from "../../agent/result.ts";
import { err, ok } from "../../agent/result-helpers.ts";
import { classifyThrown } from "../../errors/classify.ts";
import { type AnySdkError, isSdkError } from "../../errors/sdk-error.ts";
import type { McpAuth, McpAuthContext } from "../mcp-auth.ts";
import { MCP_PROVIDER } from "../mcp-failures.ts";
import { completeAuthorization, type FlowContext, startAuthorization } from "./authorization-flow.ts";
import { checkOAuthOptions, isUrl, type McpOAuthOptions, storageOf } from "./mcp-oauth-options.ts";
import { authFailure, authOptionFailure } from "./oauth-failures.ts";
import { SharedWork } from "./shared-work.ts";
import { forgetTokens, readTokens, writeTokens } from "./stored-tokens.ts";
import { refreshTokens, type StoredTokens } from "./token-grant.ts";
import { readBearerChallenge } from "./www-authenticate.ts";

/** How long before its expiry an access token is renewed, in ms. */
const EXPIRY_MARGIN_MS = 30_000;

/** Anything thrown as an SdkError (an abort first, then the network, …). */
function asSdkError(error: unknown, signal: AbortSignal): AnySdkError {
  return isSdkError(error) ? error : classifyThrown(error, { provider: MCP_PROVIDER, signal });
}

function hasRefreshToken(
  stored: StoredTokens,
): stored is StoredTokens & { tokens: { refreshToken: string } } {
  return stored.tokens.refreshToken !== undefined;
}

/** The machinery behind {@link mcpOAuth}: one per options, shared by every connection using it. */
class McpOAuth implements McpAuth {
  readonly #options: McpOAuthOptions;
  /** An authorization under way, by server URL: concurrent refusals wait for the same one. */
  readonly #authorizing = new SharedWork<boolean>();
  /** The access token each server got by the last refresh: refused again, it is not refreshed again. */
  readonly #refreshed = new Map<string, string>();
  /** A refresh under way, by server URL: requests sent meanwhile wait for it (a refresh token is used once). */
  readonly #refreshing = new SharedWork<StoredTokens | undefined>();

  constructor(options: McpOAuthOptions) {
    this.#options = options;
  }

  #flow(context: McpAuthContext): FlowContext {
    const problem = checkOAuthOptions(this.#options);
    if (problem !== undefined) throw problem;
    return {
      options: this.#options,
      storage: storageOf(this.#options),
      url: context.url,
      fetch: this.#options.fetch ?? context.fetch,
      signal: context.signal,
    };
  }

  async authorization(context: McpAuthContext): Promise<string | undefined> {
    try {
      const flow = this.#flow(context);
      let stored = await readTokens(flow.storage, flow.url);
      if (stored === undefined) return undefined;
      const expiresAt = stored.tokens.expiresAt;
      if (expiresAt !== undefined && Date.now() > expiresAt - EXPIRY_MARGIN_MS && hasRefreshToken(stored))
        stored = (await this.#refresh(stored, flow)) ?? stored;
      return `Bearer ${stored.tokens.accessToken}`;
    } catch (error) {
      throw asSdkError(error, context.signal);
    }
  }

  refused(response: Response, context: McpAuthContext): Promise<boolean> {
    const challenge = readBearerChallenge(response.headers.get("www-authenticate"));
    if (response.status === 403 && challenge.error !== "insufficient_scope") return Promise.resolve(false);
    const attempt = async (signal: AbortSignal): Promise<boolean> => {
      try {
        const flow = this.#flow({ ...context, signal });
        const stored = await readTokens(flow.storage, flow.url);
        // Renewed by another request (or another tab, sharing the storage) since this one went out.
        if (response.status === 401 && stored !== undefined && context.sent !== undefined)
          if (`Bearer ${stored.tokens.accessToken}` !== context.sent) return true;
        // A refresh renews the same scope: a missing scope (403) needs the person again.
        if (response.status === 401 && stored !== undefined && hasRefreshToken(stored)) {
          if (
            this.#refreshed.get(flow.url) !== stored.tokens.accessToken &&
            (await this.#refresh(stored, flow))
          )
            return true;
        }
        const authorizationUrl = await startAuthorization(challenge, flow);
        const callbackUrl = await this.#options.authorize?.(authorizationUrl, { signal: flow.signal });
        if (callbackUrl === undefined)
          throw authFailure(
            "The MCP server needs authorization: send the person to error.details.authorizationUrl, then call finishMcpOAuth with the URL they come back to",
            "authorization_required",
            { details: { authorizationUrl } },
          );
        await completeAuthorization(callbackUrl, flow);
        return true;
      } catch (error) {
        throw asSdkError(error, signal);
      }
    };
    return this.#authorizing
      .run(context.url, context.signal, attempt)
      .catch((error: unknown) => Promise.reject(asSdkError(error, context.signal)));
  }

  /**
   * Renews the tokens with the refresh token and keeps them; undefined (and the tokens forgotten) when
   * the authorization server refuses it, so a new authorization follows. Network failures are thrown.
   */
  #refresh(
    stored: StoredTokens & { tokens: { refreshToken: string } },
    flow: FlowContext,
  ): Promise<StoredTokens | undefined> {
    return this.#refreshing.run(flow.url, flow.signal, (signal) =>
      this.#refreshOnce(stored, { ...flow, signal }),
    );
  }

  async #refreshOnce(
    stored: StoredTokens & { tokens: { refreshToken: string } },
    flow: FlowContext,
  ): Promise<StoredTokens | undefined> {
    try {
      const tokens = await refreshTokens(stored, flow.fetch, flow.signal);
      const renewed: StoredTokens = { tokens, grant: stored.grant };
      await writeTokens(flow.storage, flow.url, renewed);
      this.#refreshed.set(flow.url, tokens.accessToken);
      return renewed;
    } catch (error) {
      if (!isSdkError(error) || error.code !== "AUTH") throw error;
      // Refused: another holder of the storage (a second tab, a parallel run) may have spent this
      // refresh token and kept the new tokens; those stand, only the spent ones are forgotten.
      const now = await readTokens(flow.storage, flow.url);
      if (now !== undefined && now.tokens.refreshToken !== stored.tokens.refreshToken) return now;
      await forgetTokens(flow.storage, flow.url);
      return undefined;
    }
  }
}

/**
 * OAuth for a remote MCP server, as the `auth` of `connectMcp`. When the server answers 401 (or 403
 * `insufficient_scope`), Wisp finds its authorization server (protected resource metadata, then
 * RFC 8414 / OpenID Connect metadata, or the 2025-03-26 default endpoints), identifies the client
 * (`client`, else `clientMetadataUrl` when the server takes client ID metadata documents, else dynamic
 * registration), renews tokens with a refresh token when it has one, and otherwise sends the person
 * through `authorize` (authorization code with PKCE S256, `state` and `resource`), then sends the
 * request again. One request is authorized again at most 3 times (scope step-up included).
 *
 * Tokens, registrations and the pending verifier and `state` go to `storage`, by server URL; secrets
 * never appear in errors. Bad options surface when connecting, as a ConfigError at `auth.…`.
 *
 * @example
 * ```ts
 * const mcp = await connectMcp({
 *   url: "https://notes.example.com/mcp",
 *   auth: mcpOAuth({
 *     redirectUrl: "http://127.0.0.1:8976/callback",
 *     authorize: async (authorizationUrl) => openBrowserAndWaitForCallback(authorizationUrl),
 *   }),
 * });
 * ```
 */
export function mcpOAuth(options: McpOAuthOptions): McpAuth {
  return new McpOAuth(options);
}

/** Options of {@link finishMcpOAuth}: the same as `mcpOAuth`'s, the server, and where the person came back to. */
export interface FinishMcpOAuthOptions extends McpOAuthOptions {
  /** The MCP server's URL (the `url` given to `connectMcp`). */
  url: string;
  /** The full URL the person came back to, with `code` and `state` (a Worker's request URL, `location.href`). */
  callbackUrl: string;
  /** Aborts the token request. */
  signal?: AbortSignal;
}

/**
 * Completes an authorization that `mcpOAuth` began when its `authorize` resolved with undefined:
 * checks `state` against the pending one in `storage`, exchanges the code and keeps the tokens, so the
 * next `connectMcp` with the same options connects without asking the person again. Give it the same
 * `storage` as `mcpOAuth` (the default memory storage belongs to one options object, which a spread
 * copy is not: a page or Worker that comes back on another load needs a storage that lasts). Never throws: a
 * `state` that does not match is a ProviderError `AUTH` with `providerCode` `"state_mismatch"`, the
 * authorization server's refusal one with its OAuth error (`access_denied`, `invalid_grant`, …).
 *
 * @example
 * ```ts
 * // a Worker's callback route; oauthOptions.storage outlives the request (KV, a Durable Object)
 * const done = await finishMcpOAuth({ ...oauthOptions, url: MCP_URL, callbackUrl: request.url });
 * if (!done.ok) return new Response(done.error.message, { status: 400 });
 * ```
 */
export async function finishMcpOAuth(
  options: FinishMcpOAuthOptions,
): Promise<Result<void, AnySdkError, undefined>> {
  const signal = options?.signal ?? new AbortController().signal;
  try {
    const problem =
      checkOAuthOptions(options) ??
      // The default storage is memory, new for this call: it could hold no pending authorization.
      (options.storage === undefined
        ? authOptionFailure(
            "finishMcpOAuth needs the storage mcpOAuth kept the pending authorization in",
            "storage",
          )
        : undefined) ??
      (isUrl(options.url)
        ? undefined
        : authOptionFailure("finishMcpOAuth: url must be the MCP server's URL", "url")) ??
      (isUrl(options.callbackUrl)
        ? undefined
        : authOptionFailure(
            "finishMcpOAuth: callbackUrl must be the full URL the person came back to",
            "callbackUrl",
          ));
    if (problem !== undefined) return err(problem);
    const url = new URL(options.url).href;
    const fetch =
      options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    await completeAuthorization(options.callbackUrl, {
      options,
      storage: storageOf(options),
      url,
      fetch,
      signal,
    });
    return ok(undefined);
  } catch (error) {
    return err(asSdkError(error, signal));
  }
}
