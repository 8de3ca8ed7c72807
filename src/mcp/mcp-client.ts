/**
 * The MCP client: the `initialize` handshake with version negotiation, requests with a timeout that
 * always ends them, progress, `notifications/cancelled` when a request is given up, one transparent
 * re-initialization when the server forgot the session (404), shared by every request that meets it
 * or starts during it, answers to the server's own requests (`ping`, and those the app handles), and
 * the GET stream for what the server says unprompted. Every failure is thrown as an SdkError.
 *
 * Its parts: mcp-client-options.ts (settings and options), mcp-progress.ts (progress tokens),
 * server-requests.ts (the server's requests), server-request-holds.ts (a request's clocks stopped
 * while the app answers the server or a person signs in) and mcp-listener.ts (the GET stream). The
 * transport under it is an McpTransport (mcp-transport.ts): Streamable HTTP (mcp-http.ts) or stdio.
 *
 * @module
 */

import { ConfigError, isSdkError, ProviderError } from "../errors/sdk-error.ts";
import { AttemptTimer } from "../http/attempt-timer.ts";
import { withTimeLimit } from "../http/time-limit.ts";
import type { JsonObject } from "../types.ts";
import { asObject } from "./as-object.ts";
import { type IncomingMessage, type RequestId, rpcNotification, rpcRequest } from "./json-rpc.ts";
import type {
  McpClientSettings,
  McpCloseOptions,
  McpRequestOptions,
  OutgoingRequest,
} from "./mcp-client-options.ts";
import { MCP_PROVIDER, rpcFailure, thrownFailure } from "./mcp-failures.ts";
import { SessionExpired } from "./mcp-http.ts";
import { McpListener } from "./mcp-listener.ts";
import { ProgressTracker } from "./mcp-progress.ts";
import type { McpSession, McpTransport } from "./mcp-transport.ts";
import { MCP_LATEST_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS } from "./protocol-versions.ts";
import { RequestHolds } from "./server-request-holds.ts";
import { ServerRequests } from "./server-requests.ts";

export type { McpClientSettings, McpCloseOptions, McpRequestOptions } from "./mcp-client-options.ts";
export type { McpProgress } from "./mcp-progress.ts";

/** How long a `notifications/cancelled` may take to send; it is never waited for by the caller. */
const CANCEL_SEND_MS = 5_000;

/** An MCP session with one server; `connectMcp` builds one per connection. */
export class McpClient {
  readonly #http: McpTransport;
  readonly #settings: McpClientSettings;
  #nextId = 1;
  readonly #progress = new ProgressTracker();
  readonly #listener: McpListener;
  readonly #serverRequests: ServerRequests;
  /** The clocks of the requests waiting for the server, stopped while the app answers a question. */
  readonly #inFlight = new Set<RequestHolds>();
  /** The app's answers to the server's questions, while they run. */
  readonly #questions = new Set<Promise<void>>();
  #reinitializing: Promise<void> | undefined;
  #closed = false;
  /** What the server said about itself in `initialize`. */
  serverInfo: JsonObject = {};
  /** The server's capabilities (`tools.listChanged`, …). */
  capabilities: JsonObject = {};
  /** The server's instructions for the model, when it gave some. */
  instructions: string | undefined;

  constructor(settings: McpClientSettings) {
    this.#settings = settings;
    this.#http = settings.transport;
    this.#listener = new McpListener(this.#http, (message) => this.#handle(message));
    this.#serverRequests = new ServerRequests(settings.requestHandlers ?? new Map(), (answer) => {
      withTimeLimit(this.#settings.timeoutMs, (signal) =>
        this.#http.post(answer, { signal, onMessage: () => {} }),
      ).catch(() => {});
    });
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

  /**
   * Runs the `initialize` handshake and sends `notifications/initialized`. The new session is built
   * aside and replaces the current one only when the whole handshake succeeded, so a failed one
   * leaves the old session id in place (its next request meets the 404 and tries again).
   */
  async initialize(signal?: AbortSignal): Promise<void> {
    const session: McpSession = { sessionId: undefined, protocolVersion: undefined };
    const params = {
      protocolVersion: MCP_LATEST_PROTOCOL_VERSION,
      capabilities: this.#settings.capabilities ?? {},
      clientInfo: { name: this.#settings.clientName, version: "1" },
    };
    const result = await this.#traced("initialize", params, undefined, () =>
      this.#exchange("initialize", params, { signal, session }),
    );
    const version = result.protocolVersion;
    if (typeof version !== "string" || !MCP_PROTOCOL_VERSIONS.includes(version)) {
      throw new ProviderError(
        `The MCP server speaks protocol version ${JSON.stringify(version)}; Wisp speaks ${MCP_PROTOCOL_VERSIONS.join(", ")}`,
        { code: "INVALID_REQUEST", provider: MCP_PROVIDER, providerCode: "unsupported_protocol_version" },
      );
    }
    session.protocolVersion = version;
    await this.notify("notifications/initialized", undefined, signal, session);
    this.#http.sessionId = session.sessionId;
    this.#http.protocolVersion = version;
    this.serverInfo = asObject(result.serverInfo) ?? {};
    this.capabilities = asObject(result.capabilities) ?? {};
    this.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
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
    return this.#traced(method, params, options.parent, () => this.#request(method, params, options));
  }

  /** `send`, inside a span for the request when the client traces (mcp-span.ts, loaded only then). */
  #traced(
    method: string,
    params: JsonObject | undefined,
    parent: McpRequestOptions["parent"],
    send: () => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const { telemetry } = this.#settings;
    if (telemetry === undefined) return send();
    const info = {
      sessionId: this.#http.sessionId,
      protocolVersion: this.#http.protocolVersion,
      server: this.#http.shownUrl,
    };
    return import("./mcp-span.ts").then(({ tracedMcpRequest }) =>
      tracedMcpRequest(telemetry, parent, method, params, info, send),
    );
  }

  async #request(
    method: string,
    params: JsonObject | undefined,
    options: McpRequestOptions,
  ): Promise<JsonObject> {
    try {
      return await this.#exchange(method, params, options);
    } catch (error) {
      if (!(error instanceof SessionExpired)) throw error;
      // A handshake that ended while this request was out already replaced the session it used.
      if (error.sessionId === this.#http.sessionId) await this.#reinitialize(options.signal);
      try {
        return await this.#exchange(method, params, options);
      } catch (again) {
        throw notFound(again, this.#http, ", even after initializing again");
      }
    }
  }

  /**
   * One initialize for every request that met the 404 at the same time (or while it ran). It runs under its own
   * timeout, not under any caller's signal: each caller stops waiting when its own signal aborts.
   */
  #reinitialize(signal: AbortSignal | undefined): Promise<void> {
    this.#reinitializing ??= this.initialize()
      .then(() => this.#listener.restart())
      .finally(() => {
        this.#reinitializing = undefined;
      });
    return this.#untilAborted(this.#reinitializing, signal);
  }

  /** Waits for a re-handshake in flight (failed or not), so a request goes out under the newest session. */
  async #afterReinitializing(signal: AbortSignal | undefined): Promise<void> {
    const pending = this.#reinitializing;
    if (pending !== undefined)
      await this.#untilAborted(
        pending.catch(() => {}),
        signal,
      );
  }

  /** `promise`, or the caller's AbortError as soon as `signal` aborts (the promise goes on for others). */
  async #untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (signal === undefined) return promise;
    const aborted = (): unknown =>
      thrownFailure(signal.reason, signal, undefined, this.#http.described("POST"));
    if (signal.aborted) throw aborted();
    let onAbort = (): void => {};
    const abort = new Promise<never>((_, reject) => {
      onAbort = () => reject(aborted());
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([promise, abort]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  async #exchange(
    method: string,
    params: JsonObject | undefined,
    options: OutgoingRequest,
  ): Promise<JsonObject> {
    const caller = options.signal;
    if (options.session === undefined) await this.#afterReinitializing(caller);
    // Aborted before it was sent: nothing to cancel on the server.
    if (caller?.aborted) throw thrownFailure(caller.reason, caller, undefined, this.#http.described("POST"));
    const id = this.#nextId++;
    const controller = new AbortController();
    // `timeoutMs` of silence ends the request (progress counts as sound), `maxTotalTimeoutMs` in all.
    const { timeoutMs, maxTotalTimeoutMs } = this.#settings;
    const timer = new AttemptTimer(controller, maxTotalTimeoutMs, timeoutMs);
    // While the app answers a question of the server's, the server is waiting for it, not silent.
    const holds = new RequestHolds(timer);
    this.#inFlight.add(holds);
    for (const question of this.#questions) void holds.hold(question);
    const onAbort = (): void => controller.abort(caller?.reason);
    caller?.addEventListener("abort", onAbort, { once: true });
    const token = String(id);
    const sent = this.#progress.track(token, params, options.onProgress, () => timer.touch());
    try {
      const answer = await this.#http.post(rpcRequest(id, method, sent), {
        signal: controller.signal,
        awaiting: id,
        session: options.session,
        onMessage: (message) => this.#handle(message),
        hold: (work) => holds.hold(work),
      });
      if (answer?.kind === "error") throw rpcFailure(answer.error, method, this.#http.described("POST"));
      if (answer?.kind !== "response") throw new Error("no response"); // post() never resolves so
      return answer.result;
    } catch (error) {
      if (error instanceof SessionExpired || isSdkError(error)) {
        if (!controller.signal.aborted) throw error;
      }
      const timedOut = timer.fired === undefined ? undefined : `MCP ${method}: ${timer.fired}`;
      if (controller.signal.aborted && method !== "initialize") this.#sendCancel(id, timedOut ?? "aborted");
      throw thrownFailure(error, caller, timedOut, this.#http.described("POST"));
    } finally {
      this.#inFlight.delete(holds);
      await holds.end();
      timer.clear();
      caller?.removeEventListener("abort", onAbort);
      this.#progress.forget(token);
    }
  }

  /** Tells the server a request was given up, without making anyone wait for it. */
  #sendCancel(requestId: RequestId, reason: string): void {
    withTimeLimit(CANCEL_SEND_MS, (signal) =>
      this.notify("notifications/cancelled", { requestId, reason }, signal),
    ).catch(() => {});
  }

  /** Sends a notification (answered 202, nothing awaited), under `session` when given. */
  async notify(
    method: string,
    params?: JsonObject,
    signal?: AbortSignal,
    session?: McpSession,
  ): Promise<void> {
    await withTimeLimit(
      this.#settings.timeoutMs,
      async (combined, timedOut) => {
        try {
          await this.#http.post(rpcNotification(method, params), {
            signal: combined,
            session,
            onMessage: () => {},
          });
        } catch (error) {
          // A 404 here (the server forgot the session it has just given) is not retried.
          if (error instanceof SessionExpired) throw notFound(error, this.#http);
          const timeout = timedOut()
            ? `MCP ${method} took longer than ${this.#settings.timeoutMs} ms`
            : undefined;
          throw thrownFailure(error, signal, timeout, this.#http.described("POST"));
        }
      },
      signal,
    );
  }

  /** Routes a message that is not the awaited response. */
  #handle(message: IncomingMessage): void {
    if (message.kind === "notification") {
      if (message.method === "notifications/progress") this.#progress.receive(message.params);
      if (message.method === "notifications/cancelled")
        this.#serverRequests.cancel(message.params.requestId, message.params.reason);
      this.#settings.onNotification(message.method, message.params);
    } else if (message.kind === "request") {
      const question = this.#serverRequests.answer(message.id, message.method, message.params);
      if (question !== undefined) this.#holdWhile(question);
    }
  }

  /**
   * Stops the clocks of every request in flight, and of those sent meanwhile, until the app has
   * answered: the server waits for the person, and the run's own tool timeout still bounds the wait.
   */
  #holdWhile(question: Promise<void>): void {
    this.#questions.add(question);
    for (const holds of this.#inFlight) void holds.hold(question);
    void question.finally(() => this.#questions.delete(question));
  }

  /**
   * Keeps the GET stream open while the session lives, for notifications the server sends unprompted
   * (`notifications/tools/list_changed`). Stops when the server has none (405, or an answer that is
   * not an event stream) or on {@link close}; waits longer and longer while streams end empty.
   */
  startListening(): void {
    this.#listener.start();
  }

  /**
   * Stops listening and, unless `endSession: false`, ends the session on the server (DELETE) within
   * the timeout. Never throws, never rejects.
   */
  async close(options: McpCloseOptions = {}): Promise<void> {
    this.#closed = true;
    this.#listener.stop();
    this.#serverRequests.cancelAll();
    if (options.endSession === false) return;
    try {
      await withTimeLimit(this.#settings.timeoutMs, (signal) => this.#http.terminate(signal));
    } catch {
      // a session the server could not be told to end expires there by itself
    }
  }
}

/**
 * A 404 that is not met with another initialize (a second one in a row, or one for a notification) as
 * a ProviderError: the internal `SessionExpired` never reaches a caller.
 */
function notFound(error: unknown, http: McpTransport, detail = ""): unknown {
  if (!(error instanceof SessionExpired)) return error;
  return new ProviderError(`${error.message}${detail}`, {
    code: "NOT_FOUND",
    status: 404,
    provider: MCP_PROVIDER,
    request: http.described("POST"),
  });
}
