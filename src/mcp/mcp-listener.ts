/**
 * The GET stream for what an MCP server says unprompted (`notifications/tools/list_changed`): kept
 * open while the session lives, reopened after a pause that grows while streams end empty (and is
 * never shorter than the reconnection time the server set with `retry:`, within a bound), given up
 * when the server offers none.
 *
 * @module
 */

import { abortableSleep } from "../http/abortable-sleep.ts";
import { reconnectDelay } from "../http/sse-retry.ts";
import type { IncomingMessage } from "./json-rpc.ts";
import { SessionExpired } from "./mcp-http.ts";
import type { McpTransport } from "./mcp-transport.ts";

/** The pause between two GET streams for unprompted messages, times the failures in a row. */
const LISTEN_PAUSE_MS = 250;
/** The longest pause between two GET streams, however many came back empty. */
const MAX_LISTEN_PAUSE_MS = 30_000;

/** Listens on a session's GET stream, handing each message to `onMessage`. */
export class McpListener {
  readonly #http: McpTransport;
  readonly #onMessage: (message: IncomingMessage) => void;
  #listening: AbortController | undefined;

  /** A listener on `http`'s session, not started yet. */
  constructor(http: McpTransport, onMessage: (message: IncomingMessage) => void) {
    this.#http = http;
    this.#onMessage = onMessage;
  }

  /**
   * Keeps the GET stream open while the session lives, for notifications the server sends unprompted
   * (`notifications/tools/list_changed`). Stops when the server has none (405, or an answer that is
   * not an event stream) or on {@link McpListener.stop}; waits longer and longer while streams end
   * empty, and at least the reconnection time the server's streams set. Does nothing while it listens
   * already, or without a session id.
   */
  start(): void {
    if (this.#listening !== undefined || this.#http.sessionId === undefined) return;
    const controller = new AbortController();
    this.#listening = controller;
    void this.#listen(controller.signal);
  }

  async #listen(signal: AbortSignal): Promise<void> {
    let failures = 0;
    let empty = 0;
    // The server's reconnection time (`retry:`): like an EventSource's, it outlives the stream that set it.
    let retryMs: number | undefined;
    const onRetry = (ms: number): void => {
      retryMs = ms;
    };
    while (!signal.aborted && failures < 3) {
      try {
        const outcome = await this.#http.listen(signal, this.#onMessage, onRetry);
        if (outcome === "not-offered") return;
        failures = 0;
        empty = outcome === "ended-empty" ? empty + 1 : 0;
      } catch (error) {
        if (error instanceof SessionExpired) return; // the next request initializes again
        failures++;
      }
      await abortableSleep(reconnectDelay(retryMs, listenPause(failures, empty)), signal);
    }
  }

  /** Listens again under a new session, if it listened before. */
  restart(): void {
    if (this.#listening === undefined) return;
    this.#listening.abort();
    this.#listening = undefined;
    this.start();
  }

  /** Stops listening. */
  stop(): void {
    this.#listening?.abort();
    this.#listening = undefined;
  }
}

/** The pause before the next GET stream: longer after failures, doubling while streams end empty. */
function listenPause(failures: number, empty: number): number {
  return Math.min(LISTEN_PAUSE_MS * (failures + 1) * 2 ** empty, MAX_LISTEN_PAUSE_MS);
}
