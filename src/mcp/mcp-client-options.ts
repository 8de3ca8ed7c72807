/**
 * What the MCP client is given: its settings (timeouts, the client's name, where notifications go,
 * besides the transport's), and per request or close, the caller's options.
 *
 * @module
 */

import type { Telemetry, TelemetryContext } from "../telemetry/telemetry-options.ts";
import type { JsonObject } from "../types.ts";
import type { McpProgress } from "./mcp-progress.ts";
import type { McpSession, McpTransport } from "./mcp-transport.ts";
import type { ServerRequestHandler } from "./server-requests.ts";

/**
 * Per request: the caller's signal, and where progress goes (its arrival restarts the timeout, never
 * past `maxTotalTimeoutMs`).
 */
export interface McpRequestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: McpProgress) => void) | undefined;
  /** With telemetry: the context the request's span is a child of (a tool call's `execute_tool` span). */
  parent?: TelemetryContext | undefined;
}

/** A request as the client sends it: `initialize` goes out under the session it is building. */
export interface OutgoingRequest extends McpRequestOptions {
  session?: McpSession | undefined;
}

/** Options of `McpConnection.close()`: whether the server's session ends with the connection. */
export interface McpCloseOptions {
  /** `false` stops listening but keeps the server's session (no DELETE), to resume it later. */
  endSession?: boolean | undefined;
}

/** What the client needs: its transport, its limits, its name, and where notifications go. */
export interface McpClientSettings {
  /** How messages reach the server (Streamable HTTP, or stdio in its runtime's entry). */
  transport: McpTransport;
  /** Silence (no answer, no progress) that ends a request, in ms. */
  timeoutMs: number;
  /** The longest a request may take however much progress keeps coming, in ms. */
  maxTotalTimeoutMs: number;
  clientName: string;
  /** The capabilities `initialize` declares (`elicitation` when the app answers it); default none. */
  capabilities?: JsonObject | undefined;
  /** Handlers of the server's requests by method (`ping` is always answered). */
  requestHandlers?: ReadonlyMap<string, ServerRequestHandler> | undefined;
  /** Every notification the server sends (after the client handled those it knows). */
  onNotification(method: string, params: JsonObject): void;
  /** A span per request (see mcp-span.ts). */
  telemetry?: Telemetry | undefined;
}
