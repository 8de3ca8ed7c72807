/**
 * The Streamable HTTP transport of MCP, fetch-only: one POST per message, the answer read as JSON or
 * as an SSE stream; a GET stream for what the server says unprompted; a DELETE to end the session.
 * It keeps the session id and the negotiated version and sends them as `Mcp-Session-Id` and
 * `MCP-Protocol-Version`. With `auth` (OAuth), each request carries the `Authorization` it gives, and a
 * 401 or 403 `insufficient_scope` is handed to `auth.refused` and the request sent again (a bounded
 * number of times; never for the DELETE of `close()`, which asks nobody). Nothing here imports the
 * OAuth machinery (src/mcp/oauth), so a connection without `auth` loads none of it. Failures are thrown as SdkErrors, except a 404 on a known session, thrown as
 * {@link SessionExpired} so the client can initialize again.
 *
 * @module
 */

import { checkFetchResult } from "../errors/fetch-result.ts";
import { type FailedRequest, isSdkError } from "../errors/sdk-error.ts";
import { abortableSleep } from "../http/abortable-sleep.ts";
import { ReadAborted, readSse, type SseHandlers } from "../http/read-sse.ts";
import { readText } from "../http/read-text.ts";
import { safeUrl } from "../http/safe-url.ts";
import { reconnectDelay, retryField } from "../http/sse-retry.ts";
import type { JsonObject } from "../types.ts";
import { type IncomingMessage, type RequestId, sortIncoming } from "./json-rpc.ts";
import { isAuthRefusal, MCP_AUTH_MAX_ATTEMPTS, type McpAuth, type McpAuthContext } from "./mcp-auth.ts";
import { AnswerLost, httpFailure, MCP_PROVIDER, protocolFailure, redirected } from "./mcp-failures.ts";
import type { ExchangeOptions, ListenOutcome, McpSession, McpTransport } from "./mcp-transport.ts";

export type { ExchangeOptions, ListenOutcome, McpSession } from "./mcp-transport.ts";

/** Thrown when the server no longer knows the session id sent (HTTP 404): initialize again. */
export class SessionExpired extends Error {
  override readonly name = "SessionExpired";
  /** The session id the server no longer knows. */
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(`The MCP server no longer knows session ${sessionId}`);
    this.sessionId = sessionId;
  }
}

/** How many times in a row a request's stream is resumed without receiving a new event. */
const MAX_RESUMES = 5;
/**
 * The pause before the second and later resumptions, times the attempt, when the server set no
 * longer reconnection time (`retry:`).
 */
const RESUME_PAUSE_MS = 100;

/** What the reading of one request's streams has found so far. */
interface StreamState {
  found: IncomingMessage | undefined;
  lastEventId: string | undefined;
  /** The reconnection time the server's last `retry:` field set, in ms (unbounded, as sent). */
  retryMs: number | undefined;
}

/** The most text a JSON answer or an error body may take before it is refused. */
const MAX_BODY_CHARS = 16 * 1024 * 1024;

/** Where and how to reach one server. */
export interface McpHttpSettings {
  url: string;
  headers: Headers;
  fetch: typeof globalThis.fetch;
  /** How requests are authorized (OAuth), besides the caller's own headers. */
  auth?: McpAuth | undefined;
}

/** One server's transport state: the URL, the caller's headers, the session and the version. */
export class McpHttp implements McpTransport {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  readonly #settings: McpHttpSettings;
  /** The URL without secrets, for errors. */
  readonly shownUrl: string;

  constructor(settings: McpHttpSettings) {
    this.#settings = settings;
    this.shownUrl = safeUrl(settings.url);
  }

  /** The request as errors name it. */
  described(method: string): FailedRequest {
    return { method, url: this.shownUrl };
  }

  #headers(accept: string, session: McpSession = this): Headers {
    const headers = new Headers(this.#settings.headers);
    headers.set("accept", accept);
    if (session.sessionId !== undefined) headers.set("mcp-session-id", session.sessionId);
    if (session.protocolVersion !== undefined) headers.set("mcp-protocol-version", session.protocolVersion);
    return headers;
  }

  /** What the authorization is told about a request: the server, the connection's fetch, the signal. */
  #authContext(signal: AbortSignal): McpAuthContext {
    return { url: this.#settings.url, fetch: this.#settings.fetch, signal };
  }

  /** Sets the `Authorization` header the connection's `auth` gives, when it gives one; returns it. */
  async #authorize(headers: Headers, signal: AbortSignal): Promise<string | undefined> {
    const auth = this.#settings.auth;
    if (auth === undefined) return undefined;
    const value = await auth.authorization(this.#authContext(signal));
    if (value !== undefined) headers.set("authorization", value);
    return value;
  }

  /**
   * Sends one request. With `auth`, a 401 (or a 403 `insufficient_scope`) is handed to `auth.refused`
   * and the request sent again with the new credentials, at most {@link MCP_AUTH_MAX_ATTEMPTS} times
   * (not for a DELETE).
   */
  async #send(
    method: string,
    accept: string,
    signal: AbortSignal,
    body?: string,
    session: McpSession = this,
    hold: <T>(work: Promise<T>) => Promise<T> = (work) => work,
  ): Promise<Response> {
    // Ending a session asks nobody to authorize: a refused DELETE stands.
    const auth = method === "DELETE" ? undefined : this.#settings.auth;
    for (let attempt = 0; ; attempt++) {
      const { response, sent } = await this.#sendOnce(method, accept, signal, body, session);
      if (auth === undefined || attempt >= MCP_AUTH_MAX_ATTEMPTS || !isAuthRefusal(response)) return response;
      const context: McpAuthContext = { ...this.#authContext(signal), sent };
      if (!(await hold(auth.refused(response, context)))) return response;
      await response.body?.cancel().catch(() => {});
    }
  }

  async #sendOnce(
    method: string,
    accept: string,
    signal: AbortSignal,
    body: string | undefined,
    session: McpSession,
  ): Promise<{ response: Response; sent: string | undefined }> {
    const headers = this.#headers(accept, session);
    if (body !== undefined) headers.set("content-type", "application/json");
    const sent = await this.#authorize(headers, signal);
    // Redirects are not followed: the headers (API keys, tokens) would go wherever the server points.
    const init: RequestInit = { method, headers, signal, redirect: "manual" };
    if (body !== undefined) init.body = body;
    const sentId = session.sessionId;
    const response = checkFetchResult(await this.#settings.fetch(this.#settings.url, init), {
      provider: MCP_PROVIDER,
      request: this.described(method),
    });
    if ((response.type as string) === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => {});
      throw redirected(response, this.described(method));
    }
    if (response.status === 404 && sentId !== undefined) {
      await response.body?.cancel().catch(() => {});
      throw new SessionExpired(sentId);
    }
    return { response, sent };
  }

  /**
   * POSTs one JSON-RPC message. Resolves with the response to `awaiting` (a result or an error),
   * or undefined when nothing was awaited (a notification or a reply, answered 202).
   */
  async post(message: JsonObject, options: ExchangeOptions): Promise<IncomingMessage | undefined> {
    const request = this.described("POST");
    const session = options.session ?? this;
    const response = await this.#send(
      "POST",
      "application/json, text/event-stream",
      options.signal,
      JSON.stringify(message),
      session,
      options.hold,
    );
    if (!response.ok) throw httpFailure(response, await boundedText(response, options.signal), request);
    try {
      return await this.#answer(response, message, options, request, session);
    } catch (error) {
      // A failure reading what the server began to answer is a lost answer, not an unreachable server.
      throw isSdkError(error) ? error : new AnswerLost(error);
    }
  }

  /** Reads the answer to a POST the server accepted. */
  async #answer(
    response: Response,
    message: JsonObject,
    options: ExchangeOptions,
    request: FailedRequest,
    session: McpSession,
  ): Promise<IncomingMessage | undefined> {
    // The server names the session when it answers `initialize`, and only then: a later answer
    // carrying another id (a stale or hostile one) does not move the session.
    const sessionId = response.headers.get("mcp-session-id");
    if (message.method === "initialize" && sessionId !== null && sessionId !== "")
      session.sessionId = sessionId;
    if (options.awaiting === undefined || response.status === 202) {
      await response.body?.cancel().catch(() => {});
      if (options.awaiting !== undefined)
        throw protocolFailure("The MCP server accepted a request without answering it", request);
      return undefined;
    }
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) return this.#readStream(response, options, request);
    if (type.includes("application/json")) return this.#readJson(response, options, request);
    await response.body?.cancel().catch(() => {});
    throw protocolFailure(`The MCP server answered with content type "${type}"`, request);
  }

  async #readJson(
    response: Response,
    options: ExchangeOptions,
    request: FailedRequest,
  ): Promise<IncomingMessage | undefined> {
    const text = await boundedText(response, options.signal);
    let found: IncomingMessage | undefined;
    for (const message of parseMessages(text, request)) {
      if (found === undefined && isAnswerTo(message, options.awaiting))
        found = message; // the first, as in a stream
      else options.onMessage(message);
    }
    if (found === undefined) throw protocolFailure("The MCP server's JSON answer has no response", request);
    return found;
  }

  /**
   * Reads an SSE answer until the awaited response. A stream that ends first after giving event ids is
   * resumed: a GET with `Last-Event-ID` (the server closes request streams to make clients poll during
   * long calls), at most {@link MAX_RESUMES} times in a row without a new event, each after the
   * reconnection time the server set with `retry:` (see `reconnectDelay`: bounded, and never
   * shorter than Wisp's own pause).
   */
  async #readStream(
    first: Response,
    options: ExchangeOptions,
    request: FailedRequest,
  ): Promise<IncomingMessage | undefined> {
    const state: StreamState = { found: undefined, lastEventId: undefined, retryMs: undefined };
    let response = first;
    for (let resumes = 0; ; resumes++) {
      const before = state.lastEventId;
      if (response.body === null) throw protocolFailure("The MCP server's event stream has no body", request);
      await readSse(response.body, this.#streamHandlers(state, options, request), options.signal);
      if (state.found !== undefined) return state.found;
      if (state.lastEventId === undefined || resumes >= MAX_RESUMES)
        throw protocolFailure(
          "The MCP server's event stream ended before its response",
          request,
          "STREAM_TRUNCATED",
        );
      if (state.lastEventId !== before) resumes = 0;
      const delayMs = reconnectDelay(state.retryMs, RESUME_PAUSE_MS * resumes);
      response = await this.#resume(state.lastEventId, options.signal, delayMs);
    }
  }

  #streamHandlers(state: StreamState, options: ExchangeOptions, request: FailedRequest): SseHandlers {
    return {
      onEvent: (event) => {
        const id = (event as { id?: unknown }).id;
        if (typeof id === "string" && id !== "") state.lastEventId = id;
        if (event.data.trim() === "") return; // a priming event (an id for resumption, no message)
        for (const message of parseMessages(event.data, request)) {
          if (state.found === undefined && isAnswerTo(message, options.awaiting)) state.found = message;
          else options.onMessage(message);
        }
      },
      isDone: () => state.found !== undefined,
      onField: retryField((ms) => {
        state.retryMs = ms;
      }),
    };
  }

  /**
   * Reconnects to a request's stream after `lastEventId`, once `delayMs` have passed; an abort of
   * `signal` during the wait ends it at once, and nothing is sent.
   */
  async #resume(lastEventId: string, signal: AbortSignal, delayMs: number): Promise<Response> {
    const request = this.described("GET");
    if (!(await abortableSleep(delayMs, signal))) throw new ReadAborted("aborted while waiting to resume");
    const headers = this.#headers("text/event-stream");
    headers.set("last-event-id", lastEventId);
    await this.#authorize(headers, signal);
    const response = checkFetchResult(
      await this.#settings.fetch(this.#settings.url, { method: "GET", headers, signal, redirect: "manual" }),
      { provider: MCP_PROVIDER, request },
    );
    if (!response.ok) throw httpFailure(response, await boundedText(response, signal), request);
    if (!isEventStream(response)) {
      await response.body?.cancel().catch(() => {});
      throw protocolFailure("The MCP server resumed a stream with something other than events", request);
    }
    return response;
  }

  /**
   * Opens the GET stream for messages the server sends unprompted and reads it until it ends or
   * `signal` aborts. `"not-offered"` when the server has no such stream: a 405, or a success that is
   * not an event stream (an HTML page, an empty body); `"ended-empty"` when a stream ended without
   * delivering a message, `"ended"` when one ended after some. `onRetry` gets each reconnection time
   * the stream sets (`retry:`), for the wait before the next one.
   */
  async listen(
    signal: AbortSignal,
    onMessage: (message: IncomingMessage) => void,
    onRetry: (ms: number) => void,
  ): Promise<ListenOutcome> {
    const request = this.described("GET");
    const response = await this.#send("GET", "text/event-stream", signal);
    if (response.status === 405 || (response.ok && !isEventStream(response))) {
      await response.body?.cancel().catch(() => {});
      return "not-offered";
    }
    if (!response.ok) throw httpFailure(response, await boundedText(response, signal), request);
    let delivered = 0;
    const onEvent = (event: { data: string }): void => {
      if (event.data.trim() === "") return;
      for (const message of parseMessages(event.data, request)) {
        delivered++;
        onMessage(message);
      }
    };
    if (response.body !== null)
      await readSse(response.body, { onEvent, onField: retryField(onRetry) }, signal);
    return delivered === 0 ? "ended-empty" : "ended";
  }

  /** Ends the session on the server (DELETE); a server that does not allow it (405) is fine. */
  async terminate(signal: AbortSignal): Promise<void> {
    if (this.sessionId === undefined) return;
    const response = await this.#send("DELETE", "application/json, text/event-stream", signal);
    await response.body?.cancel().catch(() => {});
    this.sessionId = undefined;
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").includes("text/event-stream");
}

function isAnswerTo(message: IncomingMessage, id: RequestId | undefined): boolean {
  // A response's id is a string, a number or null (sortIncoming), never undefined: no notification matches.
  return (message.kind === "response" || message.kind === "error") && message.id === id;
}

function parseMessages(text: string, request: FailedRequest): IncomingMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw protocolFailure(`The MCP server sent text that is not JSON: ${text.slice(0, 80)}`, request);
  }
  const messages = sortIncoming(value);
  if (messages === undefined)
    throw protocolFailure(`The MCP server sent JSON that is not JSON-RPC 2.0: ${text.slice(0, 80)}`, request);
  return messages;
}

/**
 * The body as text, refusing one past {@link MAX_BODY_CHARS} (read in chunks, not all at once); an
 * abort of `signal` ends the read, even through a fetch that ignores its signal.
 */
async function boundedText(response: Response, signal?: AbortSignal): Promise<string> {
  if (response.body === null) return "";
  const text = await readText(response.body, { signal }, (read) => read.length > MAX_BODY_CHARS);
  if (text.length > MAX_BODY_CHARS)
    throw new RangeError(`The answer is longer than ${MAX_BODY_CHARS} characters`);
  return text;
}
