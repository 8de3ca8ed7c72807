/**
 * The MCP client: the `initialize` handshake with version negotiation, requests with a timeout that
 * always ends them, progress, `notifications/cancelled` when a request is given up, one transparent
 * re-initialization when the server forgot the session (404), answers to the server's own requests
 * (`ping`), and the GET stream for what the server says unprompted. Every failure is thrown as an
 * SdkError.
 *
 * @module
 */

import { ConfigError, isSdkError, ProviderError } from "../errors/sdk-error.ts";
import { abortableSleep } from "../http/abortable-sleep.ts";
import type { JsonObject, JsonValue } from "../types.ts";
import {
  type IncomingMessage,
  type RequestId,
  RPC_METHOD_NOT_FOUND,
  rpcNotification,
  rpcRequest,
} from "./json-rpc.ts";
import { MCP_PROVIDER, rpcFailure, thrownFailure } from "./mcp-failures.ts";
import { McpHttp, type McpHttpSettings, SessionExpired } from "./mcp-http.ts";
import { MCP_LATEST_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS } from "./protocol-versions.ts";

/** A progress report of a request in flight (`notifications/progress`). */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Per request: the caller's signal, and where progress goes (its arrival restarts the timeout). */
export interface McpRequestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: McpProgress) => void) | undefined;
}

/** What the client needs besides the transport settings. */
export interface McpClientSettings extends McpHttpSettings {
  timeoutMs: number;
  clientName: string;
  /** Every notification the server sends (after the client handled those it knows). */
  onNotification(method: string, params: JsonObject): void;
}

/** How long a `notifications/cancelled` may take to send; it is never waited for by the caller. */
const CANCEL_SEND_MS = 5_000;

/** An MCP session with one server; `connectMcp` builds one per connection. */
export class McpClient {
  readonly #http: McpHttp;
  readonly #settings: McpClientSettings;
  #nextId = 1;
  readonly #progress = new Map<string, () => void>();
  readonly #progressHandlers = new Map<string, (progress: McpProgress) => void>();
  #reinitializing: Promise<void> | undefined;
  #listening: AbortController | undefined;
  #closed = false;
  /** What the server said about itself in `initialize`. */
  serverInfo: JsonObject = {};
  /** The server's capabilities (`tools.listChanged`, …). */
  capabilities: JsonObject = {};
  /** The server's instructions for the model, when it gave some. */
  instructions: string | undefined;

  constructor(settings: McpClientSettings) {
    this.#settings = settings;
    this.#http = new McpHttp(settings);
  }

  /** The session id the server gave, if it keeps sessions. */
  get sessionId(): string | undefined {
    return this.#http.sessionId;
  }

  /** The protocol version both sides speak. */
  get protocolVersion(): string | undefined {
    return this.#http.protocolVersion;
  }

  /** Takes over a session kept from before (a restored SessionState): no handshake until it fails. */
  adopt(sessionId: string | undefined, protocolVersion: string): void {
    this.#http.sessionId = sessionId;
    this.#http.protocolVersion = protocolVersion;
  }

  /** Runs the `initialize` handshake and sends `notifications/initialized`. */
  async initialize(signal?: AbortSignal): Promise<void> {
    this.#http.sessionId = undefined;
    this.#http.protocolVersion = undefined;
    const params = {
      protocolVersion: MCP_LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: this.#settings.clientName, version: "1" },
    };
    const result = await this.#request("initialize", params, { signal }, false);
    const version = result.protocolVersion;
    if (typeof version !== "string" || !MCP_PROTOCOL_VERSIONS.includes(version)) {
      throw new ProviderError(
        `The MCP server speaks protocol version ${JSON.stringify(version)}; Wisp speaks ${MCP_PROTOCOL_VERSIONS.join(", ")}`,
        { code: "INVALID_REQUEST", provider: MCP_PROVIDER, providerCode: "unsupported_protocol_version" },
      );
    }
    this.#http.protocolVersion = version;
    this.serverInfo = asObject(result.serverInfo);
    this.capabilities = asObject(result.capabilities);
    this.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
    await this.notify("notifications/initialized", undefined, signal);
  }

  /** Sends a request and resolves with its result; throws an SdkError on any failure. */
  request(
    method: string,
    params: JsonObject | undefined,
    options: McpRequestOptions = {},
  ): Promise<JsonObject> {
    if (this.#closed) {
      const message = `The MCP connection to ${this.#http.shownUrl} is closed: connect again`;
      return Promise.reject(new ConfigError(message, { code: "SESSION_CLOSED", provider: MCP_PROVIDER }));
    }
    return this.#request(method, params, options, true);
  }

  async #request(
    method: string,
    params: JsonObject | undefined,
    options: McpRequestOptions,
    mayReinitialize: boolean,
  ): Promise<JsonObject> {
    try {
      return await this.#exchange(method, params, options);
    } catch (error) {
      if (!(error instanceof SessionExpired) || !mayReinitialize) throw expiredAgain(error, this.#http);
      await this.#reinitialize(options.signal);
      try {
        return await this.#exchange(method, params, options);
      } catch (again) {
        throw expiredAgain(again, this.#http);
      }
    }
  }

  /** One initialize for every request that met the 404 at the same time. */
  #reinitialize(signal: AbortSignal | undefined): Promise<void> {
    this.#reinitializing ??= this.initialize(signal)
      .then(() => this.#restartListening())
      .finally(() => {
        this.#reinitializing = undefined;
      });
    return this.#reinitializing;
  }

  async #exchange(
    method: string,
    params: JsonObject | undefined,
    options: McpRequestOptions,
  ): Promise<JsonObject> {
    const caller = options.signal;
    // Aborted before it was sent: nothing to cancel on the server.
    if (caller?.aborted) throw thrownFailure(caller.reason, caller, undefined, this.#http.described("POST"));
    const id = this.#nextId++;
    const controller = new AbortController();
    let timedOut: string | undefined;
    const fire = (): void => {
      timedOut = `MCP ${method} took longer than ${this.#settings.timeoutMs} ms`;
      controller.abort(new DOMException(timedOut, "TimeoutError"));
    };
    let timer = setTimeout(fire, this.#settings.timeoutMs);
    const onAbort = (): void => controller.abort(caller?.reason);
    caller?.addEventListener("abort", onAbort, { once: true });
    const token = String(id);
    let sent = params;
    if (options.onProgress !== undefined) {
      this.#progressHandlers.set(token, options.onProgress);
      this.#progress.set(token, () => {
        clearTimeout(timer);
        timer = setTimeout(fire, this.#settings.timeoutMs);
      });
      sent = { ...params, _meta: { ...asObject(params?._meta), progressToken: token } };
    }
    try {
      const answer = await this.#http.post(rpcRequest(id, method, sent), {
        signal: controller.signal,
        awaiting: id,
        onMessage: (message) => this.#handle(message),
      });
      if (answer?.kind === "error") throw rpcFailure(answer.error, method, this.#http.described("POST"));
      if (answer?.kind !== "response") throw new Error("no response"); // post() never resolves so
      return answer.result;
    } catch (error) {
      if (error instanceof SessionExpired || isSdkError(error)) {
        if (!controller.signal.aborted) throw error;
      }
      if (controller.signal.aborted && method !== "initialize") this.#sendCancel(id, timedOut ?? "aborted");
      throw thrownFailure(error, caller, timedOut, this.#http.described("POST"));
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
      this.#progress.delete(token);
      this.#progressHandlers.delete(token);
    }
  }

  /** Tells the server a request was given up, without making anyone wait for it. */
  #sendCancel(requestId: RequestId, reason: string): void {
    const signal = AbortSignal.timeout(CANCEL_SEND_MS);
    this.notify("notifications/cancelled", { requestId, reason }, signal).catch(() => {});
  }

  /** Sends a notification (answered 202, nothing awaited). */
  async notify(method: string, params?: JsonObject, signal?: AbortSignal): Promise<void> {
    const limit = AbortSignal.timeout(this.#settings.timeoutMs);
    const combined = signal === undefined ? limit : AbortSignal.any([signal, limit]);
    try {
      await this.#http.post(rpcNotification(method, params), { signal: combined, onMessage: () => {} });
    } catch (error) {
      if (error instanceof SessionExpired) throw error;
      const timeout = limit.aborted
        ? `MCP ${method} took longer than ${this.#settings.timeoutMs} ms`
        : undefined;
      throw thrownFailure(error, signal, timeout, this.#http.described("POST"));
    }
  }

  /** Routes a message that is not the awaited response. */
  #handle(message: IncomingMessage): void {
    if (message.kind === "notification") {
      if (message.method === "notifications/progress") this.#onProgress(message.params);
      this.#settings.onNotification(message.method, message.params);
    } else if (message.kind === "request") {
      this.#reply(message.id, message.method);
    }
  }

  #onProgress(params: JsonObject): void {
    const token = String(params.progressToken);
    this.#progress.get(token)?.();
    const handler = this.#progressHandlers.get(token);
    if (handler === undefined || typeof params.progress !== "number") return;
    const progress: McpProgress = { progress: params.progress };
    if (typeof params.total === "number") progress.total = params.total;
    if (typeof params.message === "string") progress.message = params.message;
    handler(progress);
  }

  /** Answers the server's request: `ping` with an empty result, anything else "method not found". */
  #reply(id: RequestId, method: string): void {
    const answer: JsonObject =
      method === "ping"
        ? { jsonrpc: "2.0", id, result: {} }
        : {
            jsonrpc: "2.0",
            id,
            error: { code: RPC_METHOD_NOT_FOUND, message: `Method not supported: ${method}` },
          };
    const signal = AbortSignal.timeout(this.#settings.timeoutMs);
    this.#http.post(answer, { signal, onMessage: () => {} }).catch(() => {});
  }

  /**
   * Keeps the GET stream open while the session lives, for notifications the server sends unprompted
   * (`notifications/tools/list_changed`). Stops when the server has none (405) or on {@link close}.
   */
  startListening(): void {
    if (this.#listening !== undefined || this.#http.sessionId === undefined) return;
    const controller = new AbortController();
    this.#listening = controller;
    const loop = async (): Promise<void> => {
      let failures = 0;
      while (!controller.signal.aborted && failures < 3) {
        try {
          const offered = await this.#http.listen(controller.signal, (message) => this.#handle(message));
          if (!offered) return;
          failures = 0;
        } catch (error) {
          if (error instanceof SessionExpired) return; // the next request initializes again
          failures++;
        }
        await abortableSleep(250 * (failures + 1), controller.signal);
      }
    };
    void loop();
  }

  #restartListening(): void {
    if (this.#listening === undefined) return;
    this.#listening.abort();
    this.#listening = undefined;
    this.startListening();
  }

  /** Stops listening and ends the session on the server (DELETE), within the timeout; never throws. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listening?.abort();
    this.#listening = undefined;
    await this.#http.terminate(AbortSignal.timeout(this.#settings.timeoutMs)).catch(() => {});
  }
}

function asObject(value: JsonValue | undefined): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}

/** A second 404 in a row (after a fresh initialize) is a ProviderError, not another retry. */
function expiredAgain(error: unknown, http: McpHttp): unknown {
  if (!(error instanceof SessionExpired)) return error;
  return new ProviderError(`${error.message}, even after initializing again`, {
    code: "NOT_FOUND",
    status: 404,
    provider: MCP_PROVIDER,
    request: http.described("POST"),
  });
}
