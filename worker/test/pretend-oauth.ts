/**
 * A pretend OAuth-protected MCP network for Worker tests that stub `fetch`: an in-memory notes store
 * (the demo's notes server runs on it), a protected server's 401 and resource metadata, and an
 * authorization server ({@link ISSUER}) that registers any client and gives {@link ACCESS_TOKEN} for
 * the code `the-code`.
 */
import type { NotesStore } from "../mcp-notes.ts";

/** The authorization server. */
export const ISSUER = "https://as.example.test";
/** The access token {@link ISSUER} gives for the code `the-code`. */
export const ACCESS_TOKEN = "the-access-token";

/** A notes store in memory, like KV. */
export function memoryNotesStore(): NotesStore {
  const notes = new Map<string, string>();
  return {
    get: async (key) => notes.get(key) ?? null,
    put: async (key, value) => {
      notes.set(key, value);
    },
    delete: async (key) => {
      notes.delete(key);
    },
    list: async ({ prefix }) => ({
      keys: [...notes.keys()].filter((name) => name.startsWith(prefix)).map((name) => ({ name })),
    }),
  };
}

/** A protected MCP server's answer without the token: 401 naming its resource metadata. */
export function unauthorized(origin: string): Response {
  return Response.json(
    { error: "invalid_token" },
    {
      status: 401,
      headers: {
        "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      },
    },
  );
}

/** What the authorization server does besides answering. */
export interface AuthorizationServerOptions {
  /** Each registration's body. */
  registrations?: Array<Record<string, unknown>>;
  /** The token endpoint cannot be reached (a network error). */
  tokenEndpointDown?: boolean;
}

/**
 * The answer of a protected server's resource metadata or of {@link ISSUER} to `request`, or
 * undefined when the request is for neither.
 */
export async function authorizationAnswer(
  request: Request,
  options: AuthorizationServerOptions = {},
): Promise<Response | undefined> {
  const { origin, pathname } = new URL(request.url);
  if (pathname === "/.well-known/oauth-protected-resource/mcp") {
    return Response.json({ resource: `${origin}/mcp`, authorization_servers: [ISSUER] });
  }
  if (request.url === `${ISSUER}/.well-known/oauth-authorization-server`) {
    return Response.json({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      registration_endpoint: `${ISSUER}/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
    });
  }
  if (request.method === "POST" && request.url === `${ISSUER}/register`) {
    const metadata = (await request.json()) as Record<string, unknown>;
    options.registrations?.push(metadata);
    return Response.json(
      { ...metadata, client_id: "the-client", token_endpoint_auth_method: "none" },
      { status: 201 },
    );
  }
  if (request.method === "POST" && request.url === `${ISSUER}/token`) {
    if (options.tokenEndpointDown) throw new TypeError("the pretend token endpoint is down");
    const form = await request.formData();
    if (form.get("code") !== "the-code") return Response.json({ error: "invalid_grant" }, { status: 400 });
    return Response.json({ access_token: ACCESS_TOKEN, token_type: "Bearer", expires_in: 3600 });
  }
  return undefined;
}
