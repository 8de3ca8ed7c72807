/**
 * `connectMcp`: connects to an MCP server over Streamable HTTP and gives its tools as Wisp tools.
 *
 * @module
 */

import type { Tool } from "../agent/define-tool.ts";
import type { Result } from "../agent/result.ts";
import { err, ok } from "../agent/result-helpers.ts";
import { classifyThrown } from "../errors/classify.ts";
import { type AnySdkError, ConfigError, isSdkError } from "../errors/sdk-error.ts";
import { safeUrl } from "../http/safe-url.ts";
import { asyncDispose } from "../session/async-dispose.ts";
import type { JsonObject } from "../types.ts";
import { McpClient, type McpCloseOptions, type McpProgress } from "./mcp-client.ts";
import { MCP_PROVIDER } from "./mcp-failures.ts";
import type { McpServerRecord } from "./mcp-metadata.ts";
import { listMcpTools, type McpToolContext, type McpToolInfo, toWispTools } from "./mcp-tools.ts";
import { MCP_PROTOCOL_VERSIONS } from "./protocol-versions.ts";

/** How long one MCP request may take by default (the official SDK's default too). */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** The default cap on one request however much progress it reports, as a multiple of `timeoutMs`. */
export const DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR = 10;

/** The longest delay timers take (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Options of {@link connectMcp}. */
export interface ConnectMcpOptions {
  /** The server's Streamable HTTP endpoint, e.g. `https://example.com/mcp`. */
  url: string;
  /** Sent with every request: `Authorization: Bearer …`, an API key header. Never stored anywhere. */
  headers?: HeadersInit;
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
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
  /** Every notification the server sends (logging messages, progress, list changes). */
  onNotification?: (method: string, params: JsonObject) => void;
  /** Called with the new tools after `notifications/tools/list_changed` was read again. */
  onToolsChanged?: (tools: Tool<JsonObject>[]) => void;
  /** Progress of a tool call (`notifications/progress`), by the Wisp tool's name. */
  onProgress?: (tool: string, progress: McpProgress) => void;
  /** The whole `tools/call` result (images, resources and all), by the Wisp tool's name. */
  onResult?: (tool: string, result: JsonObject) => void;
}

/** A live connection: the server's tools as Wisp tools, and what to keep or end. */
export interface McpConnection {
  /** The server's tools, ready for `runAgent({ tools })`; replaced when the server's list changes. */
  readonly tools: Tool<JsonObject>[];
  /** What the server said about itself (`name`, `version`). */
  readonly serverInfo: JsonObject;
  /** The server's instructions for the model, when it gave some. */
  readonly instructions: string | undefined;
  /** URL (without secrets), session id and version: plain JSON for SessionState metadata. */
  record(): McpServerRecord;
  /** Reads the tool list again. */
  refreshTools(signal?: AbortSignal): Promise<Result<Tool<JsonObject>[], AnySdkError, undefined>>;
  /**
   * Stops listening and ends the session on the server (DELETE); never throws. With
   * `{ endSession: false }` it stops listening but keeps the server's session, so a {@link record}
   * taken before can resume it later (a Worker between requests).
   */
  close(options?: McpCloseOptions): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
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
  if (recorded !== undefined && recorded !== safeUrl(url))
    return invalid(
      `resume was recorded for ${String(recorded)}, not ${safeUrl(url)}: a session id is never sent to another server`,
      "resume.url",
    );
  return undefined;
}

function checkOptions(options: ConnectMcpOptions): ConfigError | undefined {
  if (typeof options !== "object" || options === null) return checkUrl(undefined);
  return (
    checkUrl(options.url) ??
    checkDelay(options.timeoutMs, "timeoutMs") ??
    checkDelay(options.maxTotalTimeoutMs, "maxTotalTimeoutMs") ??
    checkResume(options.resume, options.url)
  );
}

/** The request limits: `timeoutMs` and the total cap, defaults filled in. */
function limitsOf(options: ConnectMcpOptions): { timeoutMs: number; maxTotalTimeoutMs: number } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  return {
    timeoutMs,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? timeoutMs * DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR,
  };
}

/**
 * Connects to an MCP server over Streamable HTTP (fetch only) and returns its tools as Wisp tools.
 * Never throws: a bad option is a ConfigError; an HTTP error status or JSON-RPC error a ProviderError
 * (`provider: "mcp"`); a server that is down or silent a RequestError (`NETWORK`, `TIMEOUT`) within
 * `timeoutMs`; an abort an AbortError.
 *
 * @example
 * ```ts
 * const mcp = await connectMcp({ url: "https://example.com/mcp", headers: { authorization: `Bearer ${token}` } });
 * if (!mcp.ok) throw mcp.error;
 * const result = await runAgent({ model, apiKey, prompt: "Add a note", tools: [...mcp.value.tools, clock] });
 * await mcp.value.close();
 * ```
 */
export async function connectMcp(
  options: ConnectMcpOptions,
): Promise<Result<McpConnection, AnySdkError, undefined>> {
  const problem = checkOptions(options);
  if (problem !== undefined) return err(problem);
  let headers: Headers;
  try {
    headers = new Headers(options.headers);
  } catch (error) {
    const message = `connectMcp: headers cannot be sent (${error instanceof Error ? error.message : String(error)})`;
    return err(new ConfigError(message, { code: "CONFIG_INVALID", path: "headers" }));
  }
  const { signal } = options;
  let tools: Tool<JsonObject>[] = [];
  const client: McpClient = new McpClient({
    url: options.url,
    headers,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    ...limitsOf(options),
    clientName: options.clientName ?? "wisp-agent",
    onNotification: (method, params) => {
      if (method === "notifications/tools/list_changed") void refresh().catch(() => {});
      options.onNotification?.(method, params);
    },
  });
  const context: McpToolContext = {
    client,
    prefix: options.prefix ?? "",
    needsApproval: options.needsApproval,
    onProgress: options.onProgress,
    onResult: options.onResult,
  };
  const readTools = async (listSignal?: AbortSignal): Promise<Tool<JsonObject>[]> => {
    const infos = await listMcpTools(client, listSignal);
    return toWispTools(options.filter === undefined ? infos : infos.filter(options.filter), context);
  };
  let refreshes = 0;
  const refresh = async (refreshSignal?: AbortSignal): Promise<Tool<JsonObject>[]> => {
    const number = ++refreshes;
    const read = await readTools(refreshSignal);
    // Two changes close together: the list read last wins, whichever answer arrives first.
    if (number !== refreshes) return read;
    tools = read;
    options.onToolsChanged?.(tools);
    return tools;
  };
  try {
    if (options.resume === undefined) await client.initialize(signal);
    else client.adopt(options.resume.sessionId, options.resume.protocolVersion);
    tools = await readTools(signal);
    // An abort that landed after the last answer arrived, before the listener below is in place.
    if (signal?.aborted) throw signal.reason;
  } catch (error) {
    void client.close(); // ends a session the server may have opened, without holding up the answer
    return err(isSdkError(error) ? error : classifyThrown(error, { provider: MCP_PROVIDER, signal }));
  }
  if (options.listen !== false) client.startListening();
  const onAbort = (): void => void client.close();
  signal?.addEventListener("abort", onAbort, { once: true });
  const close = (closeOptions?: McpCloseOptions): Promise<void> => {
    signal?.removeEventListener("abort", onAbort);
    return client.close(closeOptions);
  };
  const connection: McpConnection = {
    get tools() {
      return tools;
    },
    get serverInfo() {
      return client.serverInfo;
    },
    get instructions() {
      return client.instructions;
    },
    record: () => {
      const record: McpServerRecord = {
        url: safeUrl(options.url),
        protocolVersion: client.protocolVersion ?? "",
      };
      if (client.sessionId !== undefined) record.sessionId = client.sessionId;
      return record;
    },
    refreshTools: async (refreshSignal) => {
      try {
        return ok(await refresh(refreshSignal));
      } catch (error) {
        return err(
          isSdkError(error)
            ? error
            : classifyThrown(error, { provider: MCP_PROVIDER, signal: refreshSignal }),
        );
      }
    },
    close,
    [asyncDispose]: () => close(),
  };
  return ok(connection);
}
