/**
 * The options of `connectMcp`, in one table: each option's doc, default and check. Unknown keys are
 * refused with the one probably meant, as for every other option set.
 *
 * @module
 */

import type { Tool } from "../agent/define-tool.ts";
import {
  notFunctionOption,
  notObjectOption,
  notSignalOption,
  notStringOption,
} from "../config/option-checks.ts";
import { checkOptions, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { safeUrl } from "../http/safe-url.ts";
import type { Telemetry } from "../telemetry/telemetry-options.ts";
import type { JsonObject } from "../types.ts";
import type { McpElicitationHandler } from "./elicitation.ts";
import type { McpAuth } from "./mcp-auth.ts";
import type { McpProgress } from "./mcp-client.ts";
import type { McpServerRecord } from "./mcp-metadata.ts";
import type { McpToolInfo } from "./mcp-tools.ts";
import { MCP_PROTOCOL_VERSIONS } from "./protocol-versions.ts";

/** How long one MCP request may take by default (the official SDK's default too). */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** The default cap on one request however much progress it reports, as a multiple of `timeoutMs`. */
export const DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR = 10;

/** The longest delay timers take (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Options of {@link connectMcp}: where the server is and how to reach it, and the session's options. */
export interface ConnectMcpOptions extends McpSessionOptions {
  /** The server's Streamable HTTP endpoint, e.g. `https://example.com/mcp`. */
  url: string;
  /** Sent with every request: `Authorization: Bearer …`, an API key header. Never stored anywhere. */
  headers?: HeadersInit;
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** How requests are authorized when the server asks (OAuth: `mcpOAuth({ … })`); default none. */
  auth?: McpAuth;
}

/** The options of an MCP session whatever the transport: limits, tool naming and what to be told. */
export interface McpSessionOptions {
  /** Aborts connecting; once connected, aborting it closes the connection. */
  signal?: AbortSignal | undefined;
  /**
   * Longest time one request may wait for the server, in ms; progress from the server restarts it
   * (default 60 000, at most 2 147 483 647).
   */
  timeoutMs?: number;
  /**
   * Longest time one request may take in all, in ms, however much progress it reports (default 10 ×
   * `timeoutMs`: 10 minutes with the default timeout).
   */
  maxTotalTimeoutMs?: number;
  /** Put before every tool name (`"notes_"` makes `add` into `notes_add`), to keep names apart. */
  prefix?: string;
  /** Which of the server's tools to offer (default: all). */
  filter?: (tool: McpToolInfo) => boolean;
  /**
   * Which tools wait for a person's approval before each call (Wisp's `needsApproval`): `true` for
   * all, or a function of the tool (its `annotations`, e.g. `destructiveHint`, are there). Default: none.
   */
  needsApproval?: boolean | ((tool: McpToolInfo) => boolean);
  /** A session kept from before ({@link mcpServerRecord} reads it from SessionState metadata). */
  resume?: McpServerRecord;
  /** Keep a GET stream open for what the server says unprompted (default true; needs a session id). */
  listen?: boolean;
  /** The name this client gives itself in `initialize` (default `"wisp-agent"`). */
  clientName?: string;
  /**
   * OpenTelemetry: a span per request (`tools/call <tool>`, `tools/list`, …), a child of the calling
   * tool's `execute_tool` span when a traced run calls it. See `Telemetry` in `wisp-agent`.
   */
  telemetry?: Telemetry;
  /** Every notification the server sends (logging messages, progress, list changes). */
  onNotification?: (method: string, params: JsonObject) => void;
  /** Called with the new tools after `notifications/tools/list_changed` was read again. */
  onToolsChanged?: (tools: Tool<JsonObject>[]) => void;
  /** Progress of a tool call (`notifications/progress`), by the Wisp tool's name. */
  onProgress?: (tool: string, progress: McpProgress) => void;
  /** The whole `tools/call` result (images, resources and all), by the Wisp tool's name. */
  onResult?: (tool: string, result: JsonObject) => void;
  /**
   * Answers the server's questions to the person (`elicitation/create`): a form (`requestedSchema`)
   * or a URL to visit. Given, the client declares the `elicitation` capability (forms and URLs); form
   * answers get the schema's defaults for fields left out and are checked against it. Not given, the
   * server is told the method is not supported. Its signal aborts when the server cancels the question
   * or the connection closes. The request that led to the question keeps its `timeoutMs` meanwhile.
   */
  onElicitation?: McpElicitationHandler;
  /** The server's resource list changed (`notifications/resources/list_changed`): list them again. */
  onResourcesChanged?: () => void;
  /** A resource subscribed to changed (`notifications/resources/updated`): read it again. */
  onResourceUpdated?: (uri: string) => void;
  /** The server's prompt list changed (`notifications/prompts/list_changed`): list them again. */
  onPromptsChanged?: () => void;
}

const invalid = (message: string, path: string): ConfigError =>
  new ConfigError(message, { code: "CONFIG_INVALID", path });

function checkUrl(url: unknown): ConfigError | undefined {
  if (typeof url !== "string") return invalid("connectMcp needs a url (the server's MCP endpoint)", "url");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalid(`connectMcp: ${safeUrl(url)} is not a URL`, "url");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return invalid(`connectMcp: the url must be http or https, not ${parsed.protocol}`, "url");
  return undefined;
}

/** A delay timers can take: a finite number of ms, above 0 and at most {@link MAX_TIMER_MS}. */
function checkDelay(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS)
    return undefined;
  return invalid(`${path} must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}`, path);
}

/** A record to resume: its version one Wisp speaks, its session id a string, its URL this one. */
function checkResume(resume: unknown, url: string): ConfigError | undefined {
  if (resume === undefined) return undefined;
  if (typeof resume !== "object" || resume === null || Array.isArray(resume))
    return invalid("resume must be a record from connection.record() or mcpServerRecord()", "resume");
  const { protocolVersion, sessionId, url: recorded } = resume as Record<string, unknown>;
  if (typeof protocolVersion !== "string" || !MCP_PROTOCOL_VERSIONS.includes(protocolVersion))
    return invalid(
      `resume.protocolVersion ${JSON.stringify(protocolVersion)} is not one Wisp speaks`,
      "resume",
    );
  if (sessionId !== undefined && typeof sessionId !== "string")
    return invalid("resume.sessionId must be a string", "resume.sessionId");
  // A record always names its server; one without (hand-made) would send its session id anywhere.
  if (typeof recorded !== "string")
    return invalid(
      "resume.url must be the URL the record was taken for (connection.record() writes it)",
      "resume.url",
    );
  if (recorded !== safeUrl(url))
    return invalid(
      `resume was recorded for ${String(recorded)}, not ${safeUrl(url)}: a session id is never sent to another server`,
      "resume.url",
    );
  return undefined;
}

/** Every option of {@link ConnectMcpOptions}, in the order they are checked. */
export const CONNECT_MCP_OPTIONS: OptionTable<ConnectMcpOptions> = {
  url: { required: true, check: checkUrl },
  headers: null,
  fetch: notFunctionOption,
  auth: (value, path) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<McpAuth>).authorization === "function" &&
    typeof (value as Partial<McpAuth>).refused === "function"
      ? undefined
      : invalid(
          `${path} must be what mcpOAuth() or mcpClientCredentials() returns, got ${showValue(value)}`,
          path,
        ),
  signal: notSignalOption,
  timeoutMs: checkDelay,
  maxTotalTimeoutMs: checkDelay,
  prefix: notStringOption,
  filter: notFunctionOption,
  needsApproval: (value, path) =>
    typeof value === "boolean" || typeof value === "function"
      ? undefined
      : invalid(`${path} must be true, false or a function, got ${showValue(value)}`, path),
  resume: null,
  listen: null,
  clientName: notStringOption,
  // Checked whole when the connection loads its telemetry (telemetry-problem.ts).
  telemetry: notObjectOption,
  onNotification: notFunctionOption,
  onToolsChanged: notFunctionOption,
  onProgress: notFunctionOption,
  onResult: notFunctionOption,
  onElicitation: notFunctionOption,
  onResourcesChanged: notFunctionOption,
  onResourceUpdated: notFunctionOption,
  onPromptsChanged: notFunctionOption,
};

/** The first problem with `connectMcp`'s options, or undefined. */
export function checkConnectMcpOptions(options: ConnectMcpOptions): ConfigError | undefined {
  if (typeof options !== "object" || options === null) return checkUrl(undefined);
  return (
    checkOptions(CONNECT_MCP_OPTIONS, options, { what: "connectMcp option" }) ??
    checkResume(options.resume, options.url)
  );
}
