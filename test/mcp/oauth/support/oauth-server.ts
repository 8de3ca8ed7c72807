/**
 * A small MCP server behind OAuth, for the tests: its protected resource metadata, an authorization
 * server (RFC 8414 metadata, dynamic registration, an authorization endpoint that redirects at once
 * with a code, a token endpoint that checks PKCE and issues access and refresh tokens), and an MCP
 * endpoint (stateless JSON: initialize, tools/list, tools/call of `echo`) that wants a Bearer token.
 * Served on 127.0.0.1 by `serveHandler`; every secret it issues ends in `-SECRET`, so a test can look
 * for them anywhere they must not be.
 */
import { createHash } from "node:crypto";
import { type LoopbackServer, serveHandler } from "../../../../runtime/node/serve-handler.ts";

/** What a test can change about the server. */
export interface OAuthServerOptions {
  /** The token endpoint refuses every request with 400 and a body echoing what it got. */
  refuseTokens?: boolean;
  /** The MCP endpoint answers every request with a token 403 `insufficient_scope`. */
  alwaysInsufficientScope?: boolean;
  /** The resource the metadata names (default: the server's /mcp). */
  resource?: string;
  /** `expires_in` of access tokens, in seconds (default 3600). */
  expiresIn?: number;
  /** Changes the authorization server metadata before it is sent (a hostile or careless server). */
  metadata?: (metadata: Record<string, string | string[]>) => Record<string, string | string[]>;
}

/** The server, what it saw, and what it issued. */
export interface OAuthServer extends LoopbackServer {
  /** The MCP endpoint. */
  mcpUrl: string;
  /** The query of each authorization request. */
  authorizations: URLSearchParams[];
  /** The form of each token request, and its Authorization header. */
  tokenRequests: Array<{ form: URLSearchParams; authorization: string | null }>;
  registrations: number;
  /** Every secret issued: client secrets, codes, access and refresh tokens. */
  secrets: Set<string>;
  /** Access tokens the MCP endpoint takes; a test may clear it to make the server refuse them. */
  validTokens: Set<string>;
}

const json = (value: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  Response.json(value, { status, headers });

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** Starts the server on 127.0.0.1 (any free port). */
export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  let base = "";
  let issued = 0;
  const challenges = new Map<string, string>();
  const state = {
    authorizations: [] as URLSearchParams[],
    tokenRequests: [] as Array<{ form: URLSearchParams; authorization: string | null }>,
    registrations: 0,
    secrets: new Set<string>(),
    validTokens: new Set<string>(),
  };
  const secret = (kind: string): string => {
    const value = `${kind}-${++issued}-${crypto.randomUUID()}-SECRET`;
    state.secrets.add(value);
    return value;
  };
  const refreshTokens = new Set<string>();
  const issueTokens = (): Response => {
    const accessToken = secret("access");
    const refreshToken = secret("refresh");
    state.validTokens.add(accessToken);
    refreshTokens.add(refreshToken);
    return json({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: options.expiresIn ?? 3600,
      refresh_token: refreshToken,
    });
  };

  async function token(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    state.tokenRequests.push({ form, authorization: request.headers.get("authorization") });
    if (options.refuseTokens)
      return json(
        {
          error: "invalid_grant",
          // A careless server quotes what it got, in the one field Wisp shows as well as in another.
          error_description: `refused code ${form.get("code")} from ${form.get("client_secret")}`.slice(
            0,
            190,
          ),
          echo: form.toString(),
        },
        400,
      );
    if (form.get("grant_type") === "authorization_code") {
      const expected = challenges.get(form.get("code") ?? "");
      if (expected === undefined || s256(form.get("code_verifier") ?? "") !== expected)
        return json({ error: "invalid_grant", error_description: "PKCE" }, 400);
      challenges.delete(form.get("code") ?? "");
      return issueTokens();
    }
    // Refresh tokens rotate: each is good once.
    if (form.get("grant_type") === "refresh_token" && refreshTokens.delete(form.get("refresh_token") ?? ""))
      return issueTokens();
    return json({ error: "invalid_grant" }, 400);
  }

  async function mcp(request: Request): Promise<Response> {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
    const bearer = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    if (!state.validTokens.has(bearer))
      return json({ error: "invalid_token" }, 401, { "www-authenticate": challenge });
    if (options.alwaysInsufficientScope)
      return json({ error: "insufficient_scope" }, 403, {
        "www-authenticate": `${challenge}, error="insufficient_scope", scope="admin"`,
      });
    const message = (await request.json()) as {
      id?: number;
      method: string;
      params?: { arguments?: unknown };
    };
    if (message.id === undefined) return new Response(null, { status: 202 });
    const answer = (result: object) => json({ jsonrpc: "2.0", id: message.id, result });
    if (message.method === "initialize")
      return answer({
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "t", version: "1" },
      });
    if (message.method === "tools/list")
      return answer({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
    return answer({ content: [{ type: "text", text: JSON.stringify(message.params?.arguments ?? {}) }] });
  }

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/mcp") return mcp(request);
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp")
      return json({
        resource: options.resource ?? `${base}/mcp`,
        authorization_servers: [base],
        scopes_supported: ["notes"],
      });
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      const metadata = {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      };
      return json(options.metadata?.(metadata) ?? metadata);
    }
    if (url.pathname === "/register") {
      state.registrations++;
      return json(
        {
          client_id: `client-${state.registrations}`,
          client_secret: secret("client"),
          token_endpoint_auth_method: "client_secret_post",
        },
        201,
      );
    }
    if (url.pathname === "/authorize") {
      state.authorizations.push(url.searchParams);
      const code = secret("code");
      challenges.set(code, url.searchParams.get("code_challenge") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (url.pathname === "/token" && request.method === "POST") return token(request);
    return new Response("not found", { status: 404 });
  }

  const server = await serveHandler(handler);
  base = server.url;
  return Object.assign(state, server, { mcpUrl: `${base}/mcp` });
}

/** Plays the person's browser: follows the authorization URL one step and returns where it sends them back. */
export async function visit(authorizationUrl: string): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (location === null) throw new Error(`no redirect from ${authorizationUrl}`);
  return location;
}
