/**
 * An OAuth-protected MCP server and its authorization server, on 127.0.0.1 at free ports (two
 * origins, as in real deployments), for the demo Worker's end-to-end test.
 *
 * - The authorization server publishes RFC 8414 metadata (PKCE S256 only, dynamic registration,
 *   public clients), registers clients (RFC 7591), approves every `/authorize` at once (a 302 back to
 *   the registered `redirect_uri` with `code` and `state`), and at `/token` exchanges a code once,
 *   only with the verifier whose S256 challenge it was given, the same client, redirect URI and
 *   resource; it also takes refresh tokens (each used once: a new pair replaces it).
 * - The MCP server (the official SDK's McpServer behind its web-standard transport, stateless, JSON
 *   answers) serves its protected resource metadata (RFC 9728) and answers any request without one
 *   of the access tokens issued with 401 and `WWW-Authenticate: Bearer resource_metadata="…"`. Its
 *   one tool, `secret`, returns a fixed phrase.
 *
 * Everything issued is recorded, so a test can assert that no token reached the page; a test can
 * revoke the access or refresh tokens issued so far, to see them renewed or the server left out.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";

/** What the `secret` tool answers (the end-to-end test looks for it on the page). */
export const SECRET_PHRASE = "the vault opens at dawn";

/** The two servers, what they issued and saw, and how to stop them. */
export interface OAuthMcpServers {
  /** The MCP endpoint (`http://127.0.0.1:<port>/mcp`). */
  mcpUrl: string;
  /** The authorization server's issuer (`http://127.0.0.1:<port>`). */
  issuer: string;
  /** Every access and refresh token issued, and every client id registered. */
  issued: { accessTokens: string[]; refreshTokens: string[]; clients: string[]; codes: string[] };
  /** What happened, in order: `register`, `authorize`, `token:<grant>`, `mcp:401`, `mcp:<method>`. */
  events: string[];
  /** The `secret` tool's calls, with the Authorization header they came with. */
  secretCalls: string[];
  /** Makes every access token issued so far invalid (the MCP server answers 401 to them). */
  revokeAccessTokens(): void;
  /** Makes every refresh token issued so far invalid (`invalid_grant`). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

const random = (): string => randomBytes(24).toString("base64url");
const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  response.end(JSON.stringify(value));
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Registered {
  redirectUris: string[];
}
interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | null;
}

/** Starts both servers. */
export async function startOAuthMcpServers(): Promise<OAuthMcpServers> {
  const issued: OAuthMcpServers["issued"] = { accessTokens: [], refreshTokens: [], clients: [], codes: [] };
  const events: string[] = [];
  const secretCalls: string[] = [];
  const clients = new Map<string, Registered>();
  const codes = new Map<string, IssuedCode>();
  const refreshes = new Set<string>();
  const valid = new Set<string>();
  let issuer = "";
  let mcpOrigin = "";

  const issueTokens = (response: ServerResponse): void => {
    const access = random();
    const refresh = random();
    issued.accessTokens.push(access);
    issued.refreshTokens.push(refresh);
    valid.add(access);
    refreshes.add(refresh);
    sendJson(response, 200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: refresh,
    });
  };

  const authorization = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    if (request.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
      return sendJson(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (request.method === "POST" && url.pathname === "/register") {
      const metadata = JSON.parse((await bodyOf(request)).toString("utf8")) as { redirect_uris?: unknown };
      const redirectUris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.map(String) : [];
      if (redirectUris.length === 0) return sendJson(response, 400, { error: "invalid_redirect_uri" });
      const clientId = `client-${random()}`;
      clients.set(clientId, { redirectUris });
      issued.clients.push(clientId);
      events.push("register");
      return sendJson(response, 201, {
        ...metadata,
        client_id: clientId,
        token_endpoint_auth_method: "none",
        redirect_uris: redirectUris,
      });
    }
    if (request.method === "GET" && url.pathname === "/authorize") {
      const params = url.searchParams;
      const client = clients.get(params.get("client_id") ?? "");
      const redirectUri = params.get("redirect_uri") ?? "";
      if (client === undefined || !client.redirectUris.includes(redirectUri)) {
        return sendJson(response, 400, {
          error: "invalid_request",
          error_description: "unknown client or redirect",
        });
      }
      const back = new URL(redirectUri);
      const state = params.get("state");
      if (state !== null) back.searchParams.set("state", state);
      if (params.get("response_type") !== "code" || params.get("code_challenge_method") !== "S256") {
        back.searchParams.set("error", "invalid_request");
      } else {
        const code = random();
        codes.set(code, {
          clientId: params.get("client_id") ?? "",
          redirectUri,
          challenge: params.get("code_challenge") ?? "",
          resource: params.get("resource"),
        });
        issued.codes.push(code);
        back.searchParams.set("code", code);
      }
      events.push("authorize");
      response.writeHead(302, { location: back.href });
      return response.end();
    }
    if (request.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams((await bodyOf(request)).toString("utf8"));
      const grant = form.get("grant_type");
      events.push(`token:${grant}`);
      if (grant === "refresh_token") {
        const refresh = form.get("refresh_token") ?? "";
        if (!refreshes.delete(refresh)) return sendJson(response, 400, { error: "invalid_grant" });
        return issueTokens(response);
      }
      if (grant !== "authorization_code") return sendJson(response, 400, { error: "unsupported_grant_type" });
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (
        code === undefined ||
        code.clientId !== form.get("client_id") ||
        code.redirectUri !== form.get("redirect_uri") ||
        code.resource !== form.get("resource") ||
        s256(verifier) !== code.challenge
      ) {
        return sendJson(response, 400, { error: "invalid_grant" });
      }
      return issueTokens(response);
    }
    sendJson(response, 404, { error: "not_found" });
  });

  const resourceMetadataUrl = (): string => `${mcpOrigin}/.well-known/oauth-protected-resource/mcp`;

  const mcp = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", mcpOrigin);
    if (request.method === "GET" && url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      return sendJson(response, 200, {
        resource: `${mcpOrigin}/mcp`,
        authorization_servers: [issuer],
        bearer_methods_supported: ["header"],
      });
    }
    if (url.pathname !== "/mcp") return sendJson(response, 404, { error: "not_found" });
    const header = request.headers.authorization ?? "";
    const token = /^Bearer (\S+)$/.exec(header)?.[1];
    if (token === undefined || !valid.has(token)) {
      events.push("mcp:401");
      return sendJson(
        response,
        401,
        { error: "invalid_token" },
        { "www-authenticate": `Bearer resource_metadata="${resourceMetadataUrl()}"` },
      );
    }
    const body = await bodyOf(request);
    const method = (() => {
      try {
        return String((JSON.parse(body.toString("utf8")) as { method?: unknown }).method);
      } catch {
        return "?";
      }
    })();
    events.push(`mcp:${method}`);
    const server = new McpServer({ name: "oauth-vault", version: "1.0.0" });
    server.registerTool(
      "secret",
      { description: "Tells the vault's secret (needs OAuth)", inputSchema: { who: z.string().optional() } },
      async ({ who }) => {
        secretCalls.push(header);
        return {
          content: [{ type: "text", text: `${SECRET_PHRASE}${who === undefined ? "" : `, ${who}`}` }],
        };
      },
    );
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const init: RequestInit = { method: request.method ?? "POST", headers };
    if (body.length > 0) init.body = new Uint8Array(body);
    const answer = await transport.handleRequest(new Request(`${mcpOrigin}${request.url}`, init));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
    await server.close();
  });

  issuer = await listen(authorization);
  mcpOrigin = await listen(mcp);
  return {
    mcpUrl: `${mcpOrigin}/mcp`,
    issuer,
    issued,
    events,
    secretCalls,
    revokeAccessTokens: () => valid.clear(),
    revokeRefreshTokens: () => refreshes.clear(),
    async close() {
      for (const server of [authorization, mcp]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
