/**
 * How an MCP connection is authorized: what the Streamable HTTP transport asks before each request
 * (the `Authorization` header to send) and after a 401 or 403 (whether to send it again, once new
 * credentials are in hand). `mcpOAuth()` makes one; a program without `auth` loads none of it.
 *
 * @module
 */

/** The authorization of one MCP connection: credentials for each request, and what to do when refused. */
export interface McpAuth {
  /** The `Authorization` header value for the next request (`Bearer …`), or undefined for none yet. */
  authorization(signal: AbortSignal): Promise<string | undefined>;
  /**
   * The server refused a request (401, or 403 with `insufficient_scope`): get new credentials.
   * Resolves true when the request should be sent again, false to give up (the refusal stands);
   * throws an SdkError when authorizing failed.
   */
  refused(response: Response, signal: AbortSignal): Promise<boolean>;
}
