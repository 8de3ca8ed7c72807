/**
 * The span of one MCP request (with a `telemetry` option), following OpenTelemetry's MCP semantic
 * conventions: `{mcp.method.name} {target}` (the tool's name for `tools/call`), kind CLIENT, a child of
 * the caller's context (an `execute_tool` span, for a tool a run calls). Loaded only by connections
 * that trace.
 *
 * @module
 */

import { recordError, SPAN_KIND } from "../telemetry/gen-ai.ts";
import type { Telemetry, TelemetryAttributes, TelemetryContext } from "../telemetry/telemetry-options.ts";
import type { JsonObject } from "../types.ts";

/** What a request's span records of the connection. */
export interface McpSpanInfo {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** The server's URL as shown (no credentials), or a stdio server's command. */
  server: string;
}

/** Runs `send` inside a span for the request `method` with `params`. */
export async function tracedMcpRequest<T>(
  telemetry: Telemetry,
  parent: TelemetryContext | undefined,
  method: string,
  params: JsonObject | undefined,
  info: McpSpanInfo,
  send: () => Promise<T>,
): Promise<T> {
  const target = method === "tools/call" || method === "prompts/get" ? params?.name : params?.uri;
  const attributes: TelemetryAttributes = {
    "mcp.method.name": method,
    "mcp.session.id": info.sessionId,
    "mcp.protocol.version": info.protocolVersion,
  };
  // The host of an HTTP server (a stdio server has none).
  try {
    attributes["server.address"] = new URL(info.server).hostname || undefined;
  } catch {
    // A stdio server's command: no host.
  }
  if (method === "tools/call" && typeof target === "string") {
    attributes["gen_ai.tool.name"] = target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  if (method === "resources/read" && typeof target === "string") attributes["mcp.resource.uri"] = target;
  const name = typeof target === "string" ? `${method} ${target}` : method;
  const span = telemetry.tracer.startSpan(
    name,
    { kind: SPAN_KIND.client, attributes },
    parent ?? telemetry.parent,
  );
  try {
    return await send();
  } catch (error) {
    recordError(span, error as { code?: string; name?: string; message?: string });
    throw error;
  } finally {
    span.end();
  }
}
