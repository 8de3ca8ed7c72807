/**
 * The server's own requests (`ping`, `elicitation/create`): each answered by a handler of the method,
 * asynchronously, under a signal that aborts when the server cancels it (`notifications/cancelled`)
 * or the connection closes. A method without a handler is answered "method not found"; a handler that
 * fails is answered with a JSON-RPC error whose message is the handler's own, never its stack. At most
 * {@link MAX_SERVER_REQUESTS} run at once, and nothing is answered after the connection closed.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import { type RequestId, RPC_METHOD_NOT_FOUND } from "./json-rpc.ts";

/** JSON-RPC's code for an error inside the answering side. */
const RPC_INTERNAL_ERROR = -32603;

/**
 * How many of the server's requests are answered at once; more are refused at once, so a hostile
 * server cannot pile up questions to the person (or handlers) without end.
 */
export const MAX_SERVER_REQUESTS = 8;

/** A failure a handler throws to answer with its own JSON-RPC code (`-32602` invalid params, …). */
export class RpcAnswerError extends Error {
  override readonly name = "RpcAnswerError";
  /** The JSON-RPC error code the server gets. */
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** Answers one method of the server's requests: its result, or a throw that becomes an error answer. */
export type ServerRequestHandler = (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

/** The server's requests being answered, by id, and the handlers that answer them. */
export class ServerRequests {
  readonly #handlers: ReadonlyMap<string, ServerRequestHandler>;
  readonly #send: (answer: JsonObject) => void;
  readonly #running = new Map<RequestId, AbortController>();
  #closed = false;

  /** Handlers by method (`ping` is always answered); `send` posts an answer to the server. */
  constructor(handlers: ReadonlyMap<string, ServerRequestHandler>, send: (answer: JsonObject) => void) {
    this.#handlers = handlers;
    this.#send = send;
  }

  /**
   * Starts answering request `id`; the answer is sent when its handler settles (unless cancelled).
   * Returns the app's work (a handler of the table's), settled when it is answered or given up (never
   * rejecting), so the client can stop its requests' clocks meanwhile; undefined for `ping` and
   * refused methods.
   */
  answer(id: RequestId, method: string, params: JsonObject): Promise<void> | undefined {
    if (this.#closed) return undefined; // the connection closed: nothing more is answered
    if (method === "ping") {
      this.#send({ jsonrpc: "2.0", id, result: {} });
      return undefined;
    }
    const handler = this.#handlers.get(method);
    if (handler === undefined) {
      const error = { code: RPC_METHOD_NOT_FOUND, message: `Method not supported: ${method}` };
      this.#send({ jsonrpc: "2.0", id, error });
      return undefined;
    }
    if (this.#running.size >= MAX_SERVER_REQUESTS && !this.#running.has(id)) {
      const message = `The client answers at most ${MAX_SERVER_REQUESTS} requests at once`;
      this.#send({ jsonrpc: "2.0", id, error: { code: RPC_INTERNAL_ERROR, message } });
      return undefined;
    }
    const controller = new AbortController();
    this.#running.get(id)?.abort(); // a server reusing an id gives up the first
    this.#running.set(id, controller);
    const run = this.#run(id, handler, params, controller);
    // Over once the question is given up, even if the app's handler pays its signal no heed.
    const given = new Promise<void>((resolve) =>
      controller.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    return Promise.race([run, given]);
  }

  async #run(
    id: RequestId,
    handler: ServerRequestHandler,
    params: JsonObject,
    controller: AbortController,
  ): Promise<void> {
    let answer: JsonObject;
    try {
      answer = { jsonrpc: "2.0", id, result: await handler(params, controller.signal) };
    } catch (error) {
      const code = error instanceof RpcAnswerError ? error.code : RPC_INTERNAL_ERROR;
      const message = error instanceof Error ? error.message : "The client could not answer";
      answer = { jsonrpc: "2.0", id, error: { code, message: message.slice(0, 1000) } };
    }
    // A request the server cancelled (or gave up by reusing its id, or the connection closed) left
    // #running when its controller aborted: it gets no answer (the spec: the receiver should not respond).
    if (this.#running.get(id) !== controller) return;
    this.#running.delete(id);
    this.#send(answer);
  }

  /** The server gave up request `id` (`notifications/cancelled`): its handler's signal aborts. */
  cancel(id: unknown, reason: unknown): void {
    if (typeof id !== "string" && typeof id !== "number") return;
    const controller = this.#running.get(id);
    this.#running.delete(id);
    controller?.abort(
      new Error(typeof reason === "string" ? reason : "The MCP server cancelled the request"),
    );
  }

  /** The connection closed: every handler's signal aborts, no answer is sent, and later requests are dropped. */
  cancelAll(): void {
    this.#closed = true;
    for (const controller of this.#running.values()) controller.abort(new Error("The MCP connection closed"));
    this.#running.clear();
  }
}
