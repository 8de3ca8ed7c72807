/**
 * What the MCP client needs of a transport: one message out and its answer read, the stream of what
 * the server says unprompted, and the end of the session. Streamable HTTP (mcp-http.ts) is the one
 * in the portable core; stdio (`wisp-agent/mcp/stdio`) is another, in its runtime's entry.
 *
 * @module
 */

import type { FailedRequest } from "../errors/sdk-error.ts";
import type { JsonObject } from "../types.ts";
import type { IncomingMessage, RequestId } from "./json-rpc.ts";

/** The session a message goes out under: its id (if the server keeps sessions) and the version. */
export interface McpSession {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
}

/** What one stream for unprompted messages came to. */
export type ListenOutcome = "not-offered" | "ended-empty" | "ended";

/** How one message goes out: its signal, the response it waits for, and where other messages go. */
export interface ExchangeOptions {
  signal: AbortSignal;
  /**
   * The session to send under and to store a new session id in, when not the transport's own: the
   * one `initialize` builds, which becomes the transport's only once the handshake succeeded.
   */
  session?: McpSession | undefined;
  /** The id of the request whose response ends the exchange; undefined for notifications and replies. */
  awaiting?: RequestId | undefined;
  /** Every other message the answer carries (notifications, the server's requests), in order. */
  onMessage(message: IncomingMessage): void;
  /**
   * Runs `work` with the request's timeout stopped: the time a person takes to authorize (OAuth) is
   * not the server's.
   */
  hold?: (<T>(work: Promise<T>) => Promise<T>) | undefined;
}

/**
 * A connection to one MCP server, as the client uses it. Failures are thrown as SdkErrors, except a
 * session the server forgot (`SessionExpired`), so the client can initialize again.
 */
export interface McpTransport extends McpSession {
  /** Where the server is, without secrets, for errors (a URL, or the command that was started). */
  readonly shownUrl: string;
  /** A request as errors name it. */
  described(method: string): FailedRequest;
  /**
   * Sends one JSON-RPC message. Resolves with the response to `awaiting` (a result or an error), or
   * undefined when nothing was awaited (a notification or a reply).
   */
  post(message: JsonObject, options: ExchangeOptions): Promise<IncomingMessage | undefined>;
  /**
   * Reads what the server says unprompted until that stream ends or `signal` aborts: `"not-offered"`
   * when the server has no such stream; `onRetry` gets each reconnection time the stream sets.
   */
  listen(
    signal: AbortSignal,
    onMessage: (message: IncomingMessage) => void,
    onRetry: (ms: number) => void,
  ): Promise<ListenOutcome>;
  /** Ends the session (an HTTP DELETE; a child process stopped); never leaves anything running. */
  terminate(signal: AbortSignal): Promise<void>;
}
