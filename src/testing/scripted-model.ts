/**
 * The scripted model: a `Request → Response` handler that answers exactly as Anthropic and OpenAI
 * Chat Completions do on the wire, driven by a script of turns and faults. Use `fetch` in-process, or
 * put `handle` behind a server (`wisp-agent/testing/node`) for other processes. It records every request
 * (as it came, and read back into Wisp's terms: read-request.ts) and counts the clients that went away
 * before their stream ended.
 *
 * @module
 */

import { abortableSleep } from "../http/abortable-sleep.ts";
import type { JsonObject } from "../types.ts";
import { PromptAccounting } from "./prompt-accounting.ts";
import { readRequest } from "./read-request.ts";
import type { HttpFault, RecordedRequest, ScriptedTurn, StreamFault } from "./script.ts";
import {
  anthropicErrorBody,
  anthropicErrorEvent,
  anthropicErrorType,
  speakAnthropic,
} from "./speak-anthropic.ts";
import { geminiErrorBody, geminiErrorEvent, speakGemini } from "./speak-gemini.ts";
import { openAIErrorBody, openAIErrorEvent, speakOpenAIChat } from "./speak-openai-chat.ts";
import { openAIResponsesErrorEvent, speakOpenAIResponses } from "./speak-openai-responses.ts";
import { frameEvent, randomId, type WireEvent } from "./wire-event.ts";

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** Answers in order, one per request. */
  script?: ScriptedTurn[];
  /**
   * Called when the script is empty, with the request and its index (0-based, among all requests this
   * model received); without it an exhausted script answers HTTP 500. The request is there as it came
   * on the wire (`body`) and in Wisp's terms, the same for every provider: `messages`, `systemPrompt`,
   * `tools`, `model`, and `toolResults` (the results the request sends back), so an answer needs no
   * wire format.
   *
   * @example
   * ```ts
   * const model = createScriptedModel({
   *   respond: (request) =>
   *     request.toolResults.length > 0
   *       ? { content: [{ type: "text", text: `The tool said ${request.toolResults[0]?.output}` }] }
   *       : { content: [{ type: "tool_call", name: "weather", args: { city: "Oslo" } }] },
   * });
   * ```
   */
  respond?: (request: RecordedRequest, index: number) => ScriptedTurn;
  /**
   * Estimate each request's prompt tokens from its text and count cached prefixes as the provider
   * documents them (Anthropic's marked breakpoints, OpenAI's automatic prefixes; see
   * prompt-accounting.ts). Figures a turn scripts itself win. Off: 25 input tokens a turn, no cache.
   */
  promptCache?: boolean;
}

/** A scripted model instance. */
export interface ScriptedModel {
  /** Answers one request. */
  handle(request: Request): Promise<Response>;
  /** A fetch that calls `handle` in-process, honouring `init.signal` as a real fetch does. */
  fetch: typeof fetch;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** How many streams ended because the client went away (abort or disconnect). */
  readonly disconnects: number;
  /** How many streams were sent to their end. */
  readonly completed: number;
  /** Appends turns to the script. */
  push(...turns: ScriptedTurn[]): void;
  /** Resolves at the next client disconnect. */
  nextDisconnect(): Promise<void>;
}

type Provider = RecordedRequest["provider"];

function providerOf(url: URL): Provider {
  if (url.pathname.endsWith("/v1/messages")) return "anthropic";
  if (url.pathname.endsWith("/chat/completions")) return "openai-chat";
  if (url.pathname.endsWith("/responses")) return "openai-responses";
  if (url.pathname.endsWith(":streamGenerateContent")) return "google";
  return "unknown";
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function httpFaultResponse(provider: Provider, fault: HttpFault): Response {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  if (fault.shouldRetry !== undefined) headers["x-should-retry"] = String(fault.shouldRetry);
  const message = fault.message ?? `Scripted HTTP ${fault.status}`;
  if (provider === "anthropic") {
    headers["request-id"] = randomId("req_");
    // Anthropic's 413 comes from Cloudflare in front of the API, without the usual JSON body.
    if (fault.status === 413 && fault.errorType === undefined) {
      return new Response("<html><body>413 Request Entity Too Large</body></html>", {
        status: 413,
        headers: { "content-type": "text/html", ...headers },
      });
    }
    return json(
      fault.status,
      anthropicErrorBody(fault.errorType ?? anthropicErrorType(fault.status), message),
      headers,
    );
  }
  if (provider === "google") {
    // Google sends its retry hint in the body (RetryInfo), not in headers.
    delete headers["retry-after"];
    return json(fault.status, geminiErrorBody(fault, message), headers);
  }
  headers["x-request-id"] = randomId("req_");
  return json(fault.status, openAIErrorBody(fault.status, message, fault.errorType), headers);
}

/** A data line cut inside its JSON, in each provider's framing. */
const MALFORMED: Record<Provider, string> = {
  anthropic:
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_de\n\n',
  "openai-chat": 'data: {"id":"chatcmpl-x","choices":[{"index":0,"delta":{"content":"x"\n\n',
  "openai-responses":
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"x\n\n',
  google: 'data: {"candidates": [{"content": {"parts": [{"text": "x\r\n\r\n',
  unknown: "data: {\n\n",
};

function faultEvent(provider: Provider, fault: StreamFault): string {
  if (fault.type === "malformed-json") return MALFORMED[provider];
  const event: WireEvent =
    provider === "anthropic"
      ? anthropicErrorEvent(fault.errorType, fault.message)
      : provider === "openai-responses"
        ? openAIResponsesErrorEvent(fault.errorType, fault.message)
        : provider === "google"
          ? geminiErrorEvent(fault.errorType, fault.message)
          : openAIErrorEvent(fault.errorType, fault.message);
  return frameEvent(event);
}

/** The scripted turn as the events of the provider's stream. */
function speak(provider: Provider, turn: ScriptedTurn, body: JsonObject, url: URL): WireEvent[] {
  // Gemini names its model in the URL (…/models/{model}:streamGenerateContent), the others in the body.
  const inUrl = /\/models\/([^/:]+):/.exec(url.pathname)?.[1];
  const model =
    typeof body.model === "string"
      ? body.model
      : inUrl !== undefined
        ? decodeURIComponent(inUrl)
        : "scripted";
  if (provider === "anthropic") return speakAnthropic(turn, model);
  if (provider === "openai-responses") return speakOpenAIResponses(turn, model);
  if (provider === "google") return speakGemini(turn, model);
  const streamOptions = body.stream_options as JsonObject | undefined;
  return speakOpenAIChat(turn, model, streamOptions?.include_usage === true);
}

/** The error a runtime's fetch reports when the server resets the connection mid-body (undici's shape). */
function connectionReset(): TypeError {
  const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
  return new TypeError("terminated", { cause });
}

/**
 * Creates a scripted model.
 *
 * @example
 * ```ts
 * const model = createScriptedModel({ script: [{ content: [{ type: "text", text: "Hello!" }] }] });
 * const turn = streamTurn(request, { model: "anthropic/claude-sonnet-5-5", fetch: model.fetch });
 * ```
 */
export function createScriptedModel(options: ScriptedModelOptions = {}): ScriptedModel {
  const script = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const accounting = options.promptCache === true ? new PromptAccounting() : undefined;
  let disconnects = 0;
  let completed = 0;
  let waiters: (() => void)[] = [];
  /** Requests made through `fetch`, in this process. */
  const inProcess = new WeakSet<Request>();

  const disconnected = (): void => {
    disconnects++;
    const current = waiters;
    waiters = [];
    for (const resolve of current) resolve();
  };

  const streamBody = (
    provider: Provider,
    frames: string[],
    turn: ScriptedTurn,
    request: Request,
  ): ReadableStream<Uint8Array> => {
    const signal = request.signal;
    const encoder = new TextEncoder();
    const gone = new AbortController();
    const fault = turn.fault?.type === "http" ? undefined : turn.fault;
    let sent = 0;
    let finished = false;
    const leave = (): void => {
      if (finished) return;
      finished = true;
      gone.abort();
      disconnected();
    };
    return new ReadableStream<Uint8Array>({
      start(controller) {
        signal.addEventListener(
          "abort",
          () => {
            if (finished) return;
            leave();
            try {
              // An in-process reader must see the abort as a real fetch shows it. A server's client
              // is gone: end quietly, as runtimes log a response body that errors (Deno does).
              if (inProcess.has(request)) controller.error(signal.reason);
              else controller.close();
            } catch {
              // already closed
            }
          },
          { once: true },
        );
      },
      async pull(controller) {
        if (sent > 0 && turn.delayMs) await abortableSleep(turn.delayMs, gone.signal);
        if (gone.signal.aborted) return;
        if (fault !== undefined && sent === fault.afterEvents) {
          if (fault.type === "stall") {
            await new Promise<void>((resolve) =>
              gone.signal.addEventListener("abort", () => resolve(), { once: true }),
            );
            return;
          }
          finished = true;
          if (fault.type === "reset") return controller.error(connectionReset());
          if (fault.type !== "truncate") controller.enqueue(encoder.encode(faultEvent(provider, fault)));
          completed++;
          return controller.close();
        }
        const frame = frames[sent++];
        if (frame !== undefined) controller.enqueue(encoder.encode(frame));
        // Like a real server, end the response together with its last event.
        if (sent >= frames.length && (fault === undefined || fault.afterEvents > frames.length)) {
          finished = true;
          completed++;
          controller.close();
        }
      },
      cancel() {
        leave();
      },
    });
  };

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const provider = providerOf(url);
    const bodyText = await request.text();
    let body: unknown = bodyText;
    try {
      body = JSON.parse(bodyText);
    } catch {
      // recorded as text
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const recorded: RecordedRequest = {
      provider,
      method: request.method,
      url: request.url,
      headers,
      body,
      bodyText,
      ...readRequest(provider, body, request.url, requests.length),
    };
    requests.push(recorded);
    if (provider === "unknown")
      return json(404, { error: { message: `No scripted API at ${url.pathname}` } });

    const turn = script.shift() ?? options.respond?.(recorded, requests.length - 1);
    if (turn === undefined) {
      return httpFaultResponse(provider, {
        type: "http",
        status: 500,
        message: "The scripted model has no more turns",
      });
    }
    if (turn.headersDelayMs) {
      if (!(await abortableSleep(turn.headersDelayMs, request.signal))) {
        disconnected();
        throw request.signal.reason;
      }
    }
    if (turn.fault?.type === "http") return httpFaultResponse(provider, turn.fault);

    const requestBody = (typeof body === "object" && body !== null ? body : {}) as JsonObject;
    const accounted =
      accounting === undefined
        ? turn
        : { ...turn, usage: { ...accounting.account(provider, requestBody), ...turn.usage } };
    const events = speak(provider, accounted, requestBody, url);
    const responseHeaders: Record<string, string> = {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      [provider === "anthropic" ? "request-id" : "x-request-id"]: randomId("req_"),
    };
    // Gemini frames its events with \r\n, as the real API does.
    const frames = events.map((event) =>
      provider === "google" ? frameEvent(event).replaceAll("\n", "\r\n") : frameEvent(event),
    );
    return new Response(streamBody(provider, frames, turn, request), {
      status: 200,
      headers: responseHeaders,
    });
  };

  const scriptedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const request = new Request(input, init);
    inProcess.add(request);
    if (signal === undefined) return handle(request);
    return await new Promise<Response>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      handle(request).then(
        (response) => {
          signal.removeEventListener("abort", onAbort);
          resolve(response);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  };

  return {
    handle,
    fetch: scriptedFetch as typeof fetch,
    requests,
    get disconnects() {
      return disconnects;
    },
    get completed() {
      return completed;
    },
    push: (...turns) => {
      script.push(...turns);
    },
    nextDisconnect: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}
