/**
 * How an MCP connection is authorized: what the Streamable HTTP transport asks before each request
 * (the `Authorization` header to send) and after a 401 or a 403 `insufficient_scope` (whether to send
 * it again, once new credentials are in hand). `mcpOAuth()` and `mcpClientCredentials()` make one; a
 * program without `auth` loads none of it.
 *
 * @module
 */

/** What the transport tells the authorization about the request at hand. */
export interface McpAuthContext {
  /** The MCP server's endpoint (the `url` of `connectMcp`): what tokens are for, and the storage namespace. */
  url: string;
  /** The connection's fetch (the `fetch` option of `connectMcp`, or the global one). */
  fetch: typeof globalThis.fetch;
  /** Aborts the work (the request's signal). */
  signal: AbortSignal;
  /**
   * In `refused`: the `Authorization` value the refused request carried. When the credentials kept
   * are newer (another request renewed them meanwhile), sending again is all it takes.
   */
  sent?: string | undefined;
}

/** The authorization of one MCP connection: credentials for each request, and what to do when refused. */
export interface McpAuth {
  /** The `Authorization` header value for the next request (`Bearer …`), or undefined for none yet. */
  authorization(context: McpAuthContext): Promise<string | undefined>;
  /**
   * The server refused a request (401, or 403 with `error="insufficient_scope"`): get new credentials.
   * Resolves true when the request should be sent again, false to give up (the refusal stands);
   * throws an SdkError when authorizing failed. The transport calls it at most
   * {@link MCP_AUTH_MAX_ATTEMPTS} times for one request.
   */
  refused(response: Response, context: McpAuthContext): Promise<boolean>;
}

/**
 * How many times one request is authorized again after a refusal before the refusal stands: a
 * server that keeps asking for a scope it never grants does not loop the person through consent.
 */
export const MCP_AUTH_MAX_ATTEMPTS = 3;

/** Whether a response is one `auth.refused` answers: 401, or 403 with `error="insufficient_scope"`. */
export function isAuthRefusal(response: Response): boolean {
  if (response.status === 401) return true;
  if (response.status !== 403) return false;
  return /(^|[\s,])error\s*=\s*"?insufficient_scope"?/i.test(response.headers.get("www-authenticate") ?? "");
}
