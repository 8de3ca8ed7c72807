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
import { asyncDispose } from "../session/async-dispose.ts";
import type { JsonObject } from "../types.ts";
import { ELICITATION_CAPABILITY, elicitationHandler } from "./elicitation.ts";
import { RPC_METHOD_NOT_FOUND } from "./json-rpc.ts";
import { McpClient, type McpCloseOptions } from "./mcp-client.ts";
import { MCP_PROVIDER } from "./mcp-failures.ts";
import { McpHttp } from "./mcp-http.ts";
import type { McpServerRecord } from "./mcp-metadata.ts";
import {
  type ConnectMcpOptions,
  checkConnectMcpOptions,
  DEFAULT_MCP_TIMEOUT_MS,
  DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR,
  type McpSessionOptions,
} from "./mcp-options.ts";
import { listMcpTools, type McpToolContext, type McpToolInfo, toWispTools } from "./mcp-tools.ts";
import type { McpTransport } from "./mcp-transport.ts";
import { getPrompt, listPrompts, type McpPrompt, type McpPromptResult } from "./prompts.ts";
import {
  listResources,
  listResourceTemplates,
  type McpResource,
  type McpResourceContents,
  type McpResourceTemplate,
  readResourceContents,
} from "./resources.ts";

export type { ConnectMcpOptions } from "./mcp-options.ts";
export { DEFAULT_MCP_TIMEOUT_MS, DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR } from "./mcp-options.ts";

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
  /** The server's resources (`resources/list`, every page). A server without resources: a ProviderError. */
  listResources(signal?: AbortSignal): Promise<Result<McpResource[], AnySdkError, undefined>>;
  /** The server's resource templates (`resources/templates/list`, every page). */
  listResourceTemplates(signal?: AbortSignal): Promise<Result<McpResourceTemplate[], AnySdkError, undefined>>;
  /** A resource's contents (`resources/read`); `resourceParts()` makes them a prompt's parts. */
  readResource(
    uri: string,
    signal?: AbortSignal,
  ): Promise<Result<McpResourceContents[], AnySdkError, undefined>>;
  /** Asks to hear when a resource changes (`resources/subscribe`): `onResourceUpdated` is then called. */
  subscribeResource(uri: string, signal?: AbortSignal): Promise<Result<void, AnySdkError, undefined>>;
  /** Stops hearing of a resource's changes (`resources/unsubscribe`). */
  unsubscribeResource(uri: string, signal?: AbortSignal): Promise<Result<void, AnySdkError, undefined>>;
  /** The server's prompts (`prompts/list`, every page). */
  listPrompts(signal?: AbortSignal): Promise<Result<McpPrompt[], AnySdkError, undefined>>;
  /** A prompt filled in with `args` by the server (`prompts/get`), its messages as Wisp parts. */
  getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<Result<McpPromptResult, AnySdkError, undefined>>;
  /**
   * Stops listening and ends the session on the server (DELETE); never throws. With
   * `{ endSession: false }` it stops listening but keeps the server's session, so a {@link record}
   * taken before can resume it later (a Worker between requests).
   */
  close(options?: McpCloseOptions): Promise<void>;
  /** `await using` support: the same as `close()` with the defaults (the server's session is ended). */
  [Symbol.asyncDispose](): Promise<void>;
}

/** What `promise` came to, as a Result: an SdkError as it is, anything else classified. */
async function settle<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<Result<T, AnySdkError, undefined>> {
  try {
    return ok(await promise);
  } catch (error) {
    return err(isSdkError(error) ? error : classifyThrown(error, { provider: MCP_PROVIDER, signal }));
  }
}

/** Tells the app that the server's resources or prompts changed, through the options that ask. */
function notifyLists(method: string, params: JsonObject, options: McpSessionOptions): void {
  if (method === "notifications/resources/list_changed") options.onResourcesChanged?.();
  else if (method === "notifications/prompts/list_changed") options.onPromptsChanged?.();
  else if (method === "notifications/resources/updated" && typeof params.uri === "string")
    options.onResourceUpdated?.(params.uri);
}

/**
 * The server's tools; none when it declared no `tools` capability and refuses `tools/list` as a
 * method it does not have (a server of resources or prompts only).
 */
async function listToolsIfAny(client: McpClient, signal: AbortSignal | undefined): Promise<McpToolInfo[]> {
  try {
    return await listMcpTools(client, signal);
  } catch (error) {
    const noTools =
      client.capabilities.tools === undefined &&
      isSdkError(error) &&
      error.providerCode === String(RPC_METHOD_NOT_FOUND);
    if (noTools) return [];
    throw error;
  }
}

/** The request limits: `timeoutMs` and the total cap, defaults filled in. */
function limitsOf(options: McpSessionOptions): { timeoutMs: number; maxTotalTimeoutMs: number } {
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
  let problem: AnySdkError | undefined;
  try {
    problem = checkConnectMcpOptions(options);
  } catch (thrown) {
    // Options whose getters throw (a hostile Proxy): a failed Result, not a rejection.
    problem = classifyThrown(thrown, {});
  }
  if (problem === undefined && options.telemetry !== undefined) {
    // Checked whole only by connections that trace.
    const { telemetryProblem } = await import("../telemetry/telemetry-problem.ts");
    const wrong = telemetryProblem(options.telemetry, "telemetry");
    if (wrong !== undefined)
      problem = new ConfigError(wrong.message, { code: "CONFIG_INVALID", path: wrong.path });
  }
  if (problem !== undefined) return err(problem);
  let headers: Headers;
  try {
    headers = new Headers(options.headers);
  } catch (error) {
    const message = `connectMcp: headers cannot be sent (${error instanceof Error ? error.message : String(error)})`;
    return err(new ConfigError(message, { code: "CONFIG_INVALID", path: "headers" }));
  }
  const transport = new McpHttp({
    url: options.url,
    headers,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    auth: options.auth,
  });
  return connectOver(transport, options);
}

/**
 * Connects over a transport already made (Streamable HTTP by {@link connectMcp}; stdio by
 * `wisp-agent/mcp/stdio`), with options already checked: the handshake (or the resumed session),
 * the tool list, and the listener. Never throws.
 */
export async function connectOver(
  transport: McpTransport,
  options: McpSessionOptions,
): Promise<Result<McpConnection, AnySdkError, undefined>> {
  const { signal } = options;
  let tools: Tool<JsonObject>[] = [];
  const { onElicitation } = options;
  const client: McpClient = new McpClient({
    transport,
    ...limitsOf(options),
    clientName: options.clientName ?? "wisp-agent",
    telemetry: options.telemetry,
    capabilities: onElicitation === undefined ? {} : { elicitation: ELICITATION_CAPABILITY },
    requestHandlers: new Map(
      onElicitation === undefined ? [] : [["elicitation/create", elicitationHandler(onElicitation)]],
    ),
    onNotification: (method, params) => {
      if (method === "notifications/tools/list_changed") void refresh().catch(() => {});
      notifyLists(method, params, options);
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
    const infos = await listToolsIfAny(client, listSignal);
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
        url: transport.shownUrl,
        protocolVersion: client.protocolVersion ?? "",
      };
      if (client.sessionId !== undefined) record.sessionId = client.sessionId;
      return record;
    },
    refreshTools: (refreshSignal) => settle(refresh(refreshSignal), refreshSignal),
    listResources: (listSignal) => settle(listResources(client, listSignal), listSignal),
    listResourceTemplates: (listSignal) => settle(listResourceTemplates(client, listSignal), listSignal),
    readResource: (uri, readSignal) => settle(readResourceContents(client, uri, readSignal), readSignal),
    subscribeResource: (uri, subscribeSignal) =>
      settle(
        client.request("resources/subscribe", { uri }, { signal: subscribeSignal }).then(() => undefined),
        subscribeSignal,
      ),
    unsubscribeResource: (uri, unsubscribeSignal) =>
      settle(
        client.request("resources/unsubscribe", { uri }, { signal: unsubscribeSignal }).then(() => undefined),
        unsubscribeSignal,
      ),
    listPrompts: (listSignal) => settle(listPrompts(client, listSignal), listSignal),
    getPrompt: (name, args, getSignal) => settle(getPrompt(client, name, args, getSignal), getSignal),
    close,
    [asyncDispose]: () => close(),
  };
  return ok(connection);
}
