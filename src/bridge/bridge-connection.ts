/**
 * The main thread's end of the bridge's port: the versioned handshake, posting, the worker's
 * messages routed to runs, calls and `onDecision`, the heartbeat, and the end of everything that
 * waits when the worker goes away.
 *
 * @module
 */

import { MAX_TIMER_MS } from "../agent/deadline.ts";
import { messageOf } from "../errors/message-of.ts";
import { type AnySdkError, ConfigError, RequestError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import { errorFromWire, eventFromWire } from "./cloneable.ts";
import { answerQuestion } from "./decision-answerer.ts";
import { type BridgeReport, DECISION_KINDS } from "./decisions.ts";
import { type BridgePort, listen } from "./endpoint.ts";
import { HookFeedListeners } from "./hook-feed-listeners.ts";
import {
  BRIDGE_PROTOCOL_VERSION,
  bridgeMessage,
  type Envelope,
  envelope,
  type MainMessage,
  type WorkerMessage,
} from "./protocol.ts";
import type { RemoteRun } from "./remote-run.ts";
import type { ConnectSessionOptions } from "./remote-session.ts";
import { WorkerWatch } from "./worker-watch.ts";

type Call = { resolve: (value: unknown) => void; reject: (error: AnySdkError) => void };

/**
 * The main thread's end of the port: the handshake, posting, the worker's messages routed to runs,
 * calls and `onDecision`, and one error (usually `BRIDGE_CLOSED`) that ends everything that waits.
 */
export class BridgeConnection {
  readonly #port: BridgePort;
  readonly #options: ConnectSessionOptions;
  readonly #report: (report: BridgeReport) => void;
  readonly #runs = new Map<string, RemoteRun>();
  readonly #calls = new Map<string, Call>();
  readonly #kinds: ReadonlySet<string>;
  /**
   * This connection's secret, sent with all it posts, and its public id, which the worker's messages
   * for it carry: its runs and calls are its own even beside other connections on the port (see
   * `Address` in protocol.ts).
   */
  readonly #key = randomId();
  readonly #conn = randomId();
  #stop: () => void = () => {};
  #next = 0;
  readonly #watch: WorkerWatch;
  /** The last error the worker itself reported (Node's `error` event), for the BRIDGE_CLOSED message. */
  #workerError: string | undefined;
  #gone: AnySdkError | undefined;
  #handshake: Call | undefined;
  /** Told the session's id when the worker answers ready. */
  readonly #onReady: (sessionId: string) => void;
  /** This connection's hook feed listeners (see hook-feed.ts). */
  readonly feed: HookFeedListeners;

  /**
   * A connection on `port`, with options already checked; {@link BridgeConnection.connect} greets the
   * worker. `onReady` is told the session's id when the worker answers ready.
   */
  constructor(port: BridgePort, options: ConnectSessionOptions, onReady: (sessionId: string) => void) {
    this.#port = port;
    this.#onReady = onReady;
    this.#options = options;
    this.#report = options.onReport ?? ((report) => console.warn(`wisp-agent/bridge: ${report.message}`));
    this.feed = new HookFeedListeners((message) => this.post(message), this.#report);
    // The worker asks only what a handler answers.
    const handlers = options.onDecision ?? {};
    this.#kinds = new Set(DECISION_KINDS.filter((kind) => typeof handlers[kind] === "function"));
    this.#watch = new WorkerWatch({
      silenceLimitMs: () => this.#options.workerTimeoutMs ?? 10_000,
      busy: () => this.#runs.size > 0 || this.#calls.size > 0,
      ping: () => this.post({ t: "ping" }),
      giveUp: (why) => {
        // Best effort: a worker that is only slow stops spending on a session nobody waits for.
        this.post({ t: "close", id: "given-up" });
        this.#goAway(why);
      },
    });
  }

  /** Greets the worker; resolves once it answered ready. */
  connect(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timeoutMs = this.#options.connectTimeoutMs ?? 10_000;
      const why = `no answer to the handshake within ${timeoutMs} ms (is serveSession running there?)`;
      const timer = timeoutMs > MAX_TIMER_MS ? undefined : setTimeout(() => this.#goAway(why), timeoutMs);
      this.#handshake = {
        resolve: () => {
          if (timer !== undefined) clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          if (timer !== undefined) clearTimeout(timer);
          reject(error);
        },
      };
      this.#stop = listen(this.#port, {
        message: (data) => this.#receive(data),
        gone: (why) => this.#goAway(why),
        error: (why) => {
          this.#workerError = why;
          this.#report({ code: "WORKER_ERROR", message: `the worker reported an error: ${why}` });
        },
      });
      if (!this.#hello()) {
        const what = this.#options.restore === undefined ? "the handshake" : "the state to restore";
        this.#fail(
          new ConfigError(`connectSession could not post ${what} to the worker (is it plain data?)`, {
            code: "CONFIG_INVALID",
            path: this.#options.restore === undefined ? "" : "restore",
          }),
        );
      }
    });
  }

  #hello(): boolean {
    // An undefined `restore` is none: the worker restores only when it is set.
    return this.post({
      t: "hello",
      conn: this.#conn,
      decides: [...this.#kinds],
      timeouts: { ...this.#options.decisionTimeoutsMs },
      restore: this.#options.restore,
    });
  }

  /**
   * Posts `message`; false when the port refused it, for example data that cannot be cloned (reported
   * unless `report` is false: the caller then says so itself).
   */
  post(message: MainMessage, report = true): boolean {
    if (this.#gone !== undefined) return false;
    try {
      this.#port.postMessage(envelope(message, { key: this.#key }));
      return true;
    } catch (error) {
      if (report)
        this.#report({ code: "POST_FAILED", message: `a message could not be posted: ${messageOf(error)}` });
      return false;
    }
  }

  #receive(data: unknown): void {
    const message = bridgeMessage<WorkerMessage>(data);
    if (message === undefined || this.#gone !== undefined) return;
    this.#watch.heard();
    if (message.v !== BRIDGE_PROTOCOL_VERSION) {
      this.#fail(
        new ConfigError(
          `The worker speaks bridge protocol ${String(message.v)}, this page ${BRIDGE_PROTOCOL_VERSION}: load the same wisp-agent version on both sides`,
          { code: "BRIDGE_VERSION", details: { theirs: message.v, ours: BRIDGE_PROTOCOL_VERSION } },
        ),
      );
      return;
    }
    // Another connection's (its runs, replies, questions): this one's ids may be the same.
    if (message.to !== undefined && message.to !== this.#conn) return;
    try {
      this.#handle(message);
    } catch (error) {
      // A malformed message from the other side is reported, never thrown into the port's listener.
      this.#report({
        code: "PROTOCOL",
        message: `a malformed ${String(message.t)} message: ${messageOf(error)}`,
      });
    }
  }

  #handle(message: Envelope<WorkerMessage>): void {
    switch (message.t) {
      case "listening":
        if (this.#handshake !== undefined) this.#hello();
        return;
      case "ready":
        this.#onReady(message.sessionId);
        this.#handshake?.resolve(undefined);
        this.#handshake = undefined;
        return;
      case "refused":
        this.#fail(errorFromWire(message.error));
        return;
      case "event":
        this.#runs.get(message.id)?.receive(eventFromWire(message.event));
        return;
      case "reply": {
        const call = this.#calls.get(message.id);
        const error = message.error === undefined ? undefined : errorFromWire(message.error);
        this.#calls.delete(message.id);
        if (error === undefined) call?.resolve(message.value);
        else call?.reject(error);
        return;
      }
      case "decide":
        void answerQuestion(
          message,
          this.#options.onDecision,
          (sent, report) => this.post(sent, report),
          this.#report,
        );
        return;
      case "report": {
        const report: BridgeReport = {
          code: message.code as BridgeReport["code"],
          message: String(message.message),
        };
        if (typeof message.requestId === "string") report.requestId = message.requestId;
        this.#report(report);
        return;
      }
      case "closed":
        this.#fail(new ConfigError("The session was closed", { code: "SESSION_CLOSED" }));
        return;
      case "pong":
        return;
      case "feed":
        this.feed.receive(message);
        return;
    }
  }

  /** The error that ended the connection, once it ended. */
  get gone(): AnySdkError | undefined {
    return this.#gone;
  }

  /** A fresh id for a run or a call: `prefix-n`. */
  nextId(prefix: string): string {
    return `${prefix}-${++this.#next}`;
  }

  /** Routes `id`'s events to `run` until {@link BridgeConnection.dropRun}, and watches the worker meanwhile. */
  addRun(id: string, run: RemoteRun): void {
    this.#runs.set(id, run);
    this.#watch.watch();
  }

  /** Forgets an ended run. */
  dropRun(id: string): void {
    this.#runs.delete(id);
  }

  /**
   * Calls `method` in the worker (with its one `argument`, plain data, when it takes one); rejects with
   * the error that ended the connection, if it ended.
   */
  call(
    method: Extract<MainMessage, { t: "call" }>["method"] | "close",
    argument?: unknown,
  ): Promise<unknown> {
    if (this.#gone !== undefined) return Promise.reject(this.#gone);
    const id = this.nextId(method);
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      this.#watch.watch();
      if (method === "close") this.post({ t: "close", id });
      else
        this.post(argument === undefined ? { t: "call", id, method } : { t: "call", id, method, argument });
    });
  }

  #goAway(why: string): void {
    const after = this.#workerError === undefined ? "" : ` (after it reported: ${this.#workerError})`;
    this.#fail(new RequestError(`The session's worker is gone: ${why}${after}`, { code: "BRIDGE_CLOSED" }));
  }

  /**
   * Ends everything that waits with `error`. A pending `close` call is rejected too (with
   * SESSION_CLOSED once the worker confirmed it): `Client.close` ignores how its call ends.
   */
  #fail(error: AnySdkError): void {
    if (this.#gone !== undefined) return;
    this.#gone = error;
    this.#watch.stop();
    this.#stop();
    this.#handshake?.reject(error);
    this.#handshake = undefined;
    for (const run of [...this.#runs.values()]) run.fail(error);
    this.#runs.clear();
    for (const [id, call] of [...this.#calls]) {
      this.#calls.delete(id);
      call.reject(error);
    }
  }
}
