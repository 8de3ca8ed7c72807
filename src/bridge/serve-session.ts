/**
 * The worker side of the bridge: `serveSession(port, options)` keeps a session here — its tools, hooks,
 * provider key and fetch never cross — and serves the main thread's requests over `port`. When the
 * main side answers decisions, the session's hooks and approvals ask it (see decisions.ts); runs
 * stream their events back under credit-based flow control (see event-outbox.ts).
 *
 * @module
 */

import type { AgentEvent } from "../agent/agent-events.ts";
import type { PermissionPolicy } from "../agent/permission-policy.ts";
import { invalidOption, notStringsOption } from "../config/option-checks.ts";
import { optionKeys } from "../config/option-table.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { type AgentSession, createAgentSession, type ExportOptions } from "../session/agent-session.ts";
import type { SessionOptions } from "../session/session-options.ts";
import { contextFromTraceparent } from "../telemetry/trace-context.ts";
import {
  checkServeOptions,
  notDecisionTimeouts,
  SERVE_OPTIONS,
  type ServeBridgeOptions,
} from "./bridge-options.ts";
import { bridgedOptions } from "./bridged-hooks.ts";
import { errorToWire, eventToWire } from "./cloneable.ts";
import { DecisionAsker } from "./decision-asker.ts";
import { type BridgeReport, DEFAULT_DECISION_TIMEOUTS } from "./decisions.ts";
import { type BridgePort, isBridgePort, listen } from "./endpoint.ts";
import { EventOutbox } from "./event-outbox.ts";
import { HookFeedSource } from "./hook-feed-source.ts";
import {
  BRIDGE_PROTOCOL_VERSION,
  bridgeMessage,
  type Envelope,
  envelope,
  type MainMessage,
  type WorkerMessage,
} from "./protocol.ts";

/**
 * The events a quiet run (`chat`, `resume`: only the result is wanted) still sends: whole messages and
 * what frames them, few per run, so the main thread can give a partial result if the worker dies.
 */
const KEPT_WHEN_QUIET = new Set<AgentEvent["type"]>([
  "run-start",
  "turn-start",
  "message",
  "tool-result",
  "run-end",
]);

/** The options of {@link serveSession}: a session's options, and the bridge's own. */
export interface ServeSessionOptions extends SessionOptions, ServeBridgeOptions {}

/** A served session, from the worker's side. */
export interface SessionServer {
  /** Resolves once the bridge is closed: by the main side, by {@link SessionServer.close}, or when the port goes. */
  readonly closed: Promise<void>;
  /**
   * Closes the session (aborting what runs) and stops listening; resolves once the session is closed
   * (its `sessionEnd` hooks run), also when called again while it closes.
   */
  close(): Promise<void>;
}

/** A run in flight, as this side holds it. */
interface ServedRun {
  controller: AbortController;
  outbox: EventOutbox;
}

/**
 * One `connectSession` on the other side. Its runs are keyed by the ids it gave them, in its own map:
 * ids are only unique per connection (see `Address` in protocol.ts).
 */
interface Connection {
  /** Its public id: what it is sent goes `to` this. */
  readonly conn: string;
  readonly runs: Map<string, ServedRun>;
}

/** A ConfigError when a hello's `key` or `conn` is not an id (a non-empty string). */
function notId(value: unknown, path: string): ConfigError | undefined {
  if (typeof value === "string" && value !== "") return undefined;
  return invalidOption(`a hello's ${path} must be a non-empty string, got ${typeof value}`, path);
}

/** What is left of the options for `createAgentSession`. */
function sessionPart(options: ServeSessionOptions): SessionOptions {
  const bridgeKeys: readonly string[] = optionKeys(SERVE_OPTIONS);
  return Object.fromEntries(
    Object.entries(options).filter(([key]) => !bridgeKeys.includes(key)),
  ) as SessionOptions;
}

class Server implements SessionServer {
  readonly closed: Promise<void>;
  readonly #port: BridgePort;
  readonly #options: ServeSessionOptions;
  readonly #report: (report: BridgeReport) => void;
  readonly #stop: () => void;
  /** The connections by their secret key. */
  readonly #connections = new Map<string, Connection>();
  /** The connection whose hello made the session: its decision kinds shaped it, so it is asked. */
  #maker: Connection | undefined;
  #session: Promise<AgentSession | undefined> | undefined;
  /** Why the session could not be made, for the connections that come after. */
  #refusal: unknown;
  #asker: DecisionAsker | undefined;
  /** The hook feed, sent to the connections that observe. */
  readonly #feed = new HookFeedSource((message, to) => this.#post(message, to));
  #done = false;
  #closing = false;
  #finish: () => void = () => {};

  constructor(port: BridgePort, options: ServeSessionOptions) {
    this.#port = port;
    this.#options = options;
    this.#report = (report) => {
      options.onReport?.(report);
      // The main side hears it too (its onReport, by default console.warn); if it cannot, say it here.
      if (!this.#post({ t: "report", ...report }) && options.onReport === undefined)
        console.warn(`wisp-agent/bridge: ${report.message}`);
    };
    this.closed = new Promise((resolve) => {
      this.#finish = resolve;
    });
    this.#stop = listen(port, {
      message: (data) => this.#receive(data),
      gone: () => void this.#end(false),
    });
    this.#post({ t: "listening" });
  }

  /**
   * Posts `message` `to` one connection (else to every one); false when the bridge is done or the
   * port refused it (reported, unless it was a report).
   */
  #post(message: WorkerMessage, to?: string): boolean {
    if (this.#done) return false;
    try {
      this.#port.postMessage(envelope(message, to === undefined ? {} : { to }));
      return true;
    } catch (error) {
      if (message.t !== "report")
        this.#report({ code: "POST_FAILED", message: `a message could not be posted: ${String(error)}` });
      return false;
    }
  }

  #receive(data: unknown): void {
    const message = bridgeMessage<MainMessage>(data);
    if (message === undefined || this.#done || this.#closing) return;
    if (message.v !== BRIDGE_PROTOCOL_VERSION) {
      this.#refuse(
        new ConfigError(
          `The main thread speaks bridge protocol ${String(message.v)}, this worker ${BRIDGE_PROTOCOL_VERSION}: load the same wisp-agent version on both sides`,
          { code: "BRIDGE_VERSION", details: { theirs: message.v, ours: BRIDGE_PROTOCOL_VERSION } },
        ),
      );
      return;
    }
    if (message.t === "hello") {
      this.#hello(message);
      return;
    }
    const connection = typeof message.key === "string" ? this.#connections.get(message.key) : undefined;
    if (connection === undefined) {
      this.#report({
        code: "PROTOCOL",
        message: `a ${String(message.t)} message from no connection; ignored`,
      });
      return;
    }
    void this.#handle(message, connection).catch((error) =>
      this.#report({ code: "PROTOCOL", message: String(error) }),
    );
  }

  #refuse(error: ConfigError): void {
    this.#post({ t: "refused", error: errorToWire(error) });
    this.#report({ code: "PROTOCOL", message: error.message });
    void this.#end(false);
  }

  async #handle(message: Envelope<MainMessage>, connection: Connection): Promise<void> {
    switch (message.t) {
      case "ping":
        this.#post({ t: "pong" });
        return;
      case "run":
        // Registered before anything is awaited, so an abort right behind it finds the run.
        await this.#run(message, connection);
        return;
      case "credit":
        connection.runs.get(message.id)?.outbox.grant(message.n);
        return;
      case "abort": {
        const reason = message.reason === undefined ? undefined : new Error(message.reason);
        // Without a run id it is the session's abort (every connection's run): the README's `abort()`.
        if (message.id === undefined) (await this.#session)?.abort(reason);
        else connection.runs.get(message.id)?.controller.abort(reason);
        return;
      }
      case "decision":
        // Only the connection that was asked answers; anyone else's answer is an unknown request.
        if (connection === this.#maker)
          this.#asker?.answer(message.requestId, message.answer, message.failed);
        else
          this.#report({
            code: "DECISION_UNKNOWN",
            message: `a decision from a connection that was not asked (request ${String(message.requestId)}); ignored`,
          });
        return;
      case "call":
        await this.#call(message, connection.conn);
        return;
      case "close":
        await this.#end(true);
        return;
      case "observe":
        this.#feed.observe(connection.conn, message.on === true);
        return;
    }
  }

  #hello(hello: Envelope<Extract<MainMessage, { t: "hello" }>>): void {
    const { key, conn } = hello;
    const theirs =
      notId(key, "key") ??
      notId(conn, "conn") ??
      notStringsOption(hello.decides, "decisionKinds") ??
      notDecisionTimeouts(hello.timeouts, "decisionTimeoutsMs");
    if (theirs !== undefined) {
      // A malformed first hello ends the bridge, as before; a later one only goes unanswered.
      if (this.#session === undefined) this.#refuse(theirs);
      else this.#report({ code: "PROTOCOL", message: `a malformed hello; ignored: ${theirs.message}` });
      return;
    }
    const connection = this.#connect(key as string, conn);
    if (connection === undefined) return;
    if (this.#session !== undefined) {
      // Another connection, or the same one again (it also greets when it hears this side listening).
      void this.#session.then((session) =>
        session === undefined
          ? this.#post({ t: "refused", error: errorToWire(this.#refusal) }, conn)
          : this.#post({ t: "ready", sessionId: session.sessionId }, conn),
      );
      return;
    }
    this.#maker = connection;
    const timeouts = { ...DEFAULT_DECISION_TIMEOUTS, ...this.#options.decisionTimeoutsMs, ...hello.timeouts };
    const asker = new DecisionAsker(timeouts, (message) => this.#post(message, conn), this.#report);
    this.#asker = asker;
    const base = sessionPart(this.#options);
    const options = this.#feed.observed(
      bridgedOptions(
        hello.restore === undefined ? base : { ...base, restore: hello.restore },
        new Set(hello.decides),
        asker,
      ),
    );
    this.#session = createAgentSession(options).then((created) => {
      if (created.ok) {
        this.#post({ t: "ready", sessionId: created.value.sessionId }, conn);
        return created.value;
      }
      this.#refusal = created.error;
      this.#post({ t: "refused", error: errorToWire(created.error) }, conn);
      return undefined;
    });
  }

  /**
   * The connection with this secret `key`, registered at its first hello; undefined (reported) when
   * it claims a public id that another key has: nobody gets sent another connection's messages.
   */
  #connect(key: string, conn: string): Connection | undefined {
    const known = this.#connections.get(key);
    if (known?.conn === conn) return known;
    const taken = [...this.#connections.values()].some((connection) => connection.conn === conn);
    if (known !== undefined || taken) {
      this.#report({ code: "PROTOCOL", message: "a hello claiming another connection's id; ignored" });
      return undefined;
    }
    const connection: Connection = { conn, runs: new Map() };
    this.#connections.set(key, connection);
    return connection;
  }

  async #run(request: Extract<MainMessage, { t: "run" }>, connection: Connection): Promise<void> {
    const { runs, conn } = connection;
    if (runs.has(request.id)) {
      // The connection's own ids are its business, but a run in flight is never replaced.
      this.#report({
        code: "PROTOCOL",
        message: `a second run ${String(request.id)} while the first runs; ignored`,
      });
      return;
    }
    const controller = new AbortController();
    const outbox = new EventOutbox(request.window, (event) =>
      this.#post({ t: "event", id: request.id, event: eventToWire(event as AgentEvent) }, conn),
    );
    runs.set(request.id, { controller, outbox });
    const session = await this.#session;
    if (session === undefined) {
      runs.delete(request.id);
      return;
    }
    // An abort that came while the session was being created is in the signal: the run ends ABORTED.
    // The main thread's span, when it sent one, is the run's parent: one trace across the port.
    const traceParent =
      typeof request.traceparent === "string" ? contextFromTraceparent(request.traceparent) : undefined;
    const common =
      traceParent === undefined ? { signal: controller.signal } : { signal: controller.signal, traceParent };
    const run =
      request.op === "resume"
        ? session.resumeStream(request.decisions ?? [], common)
        : session.stream(request.input ?? "", { ...request.options, ...common });
    const tap = this.#feed.tap(session.sessionId);
    for await (const event of run) {
      tap(event);
      if (!request.quiet || KEPT_WHEN_QUIET.has(event.type)) outbox.push(event);
    }
    outbox.end();
    await outbox.drained;
    runs.delete(request.id);
  }

  async #call(call: Extract<MainMessage, { t: "call" }>, conn: string): Promise<void> {
    const { id, method } = call;
    const session = await this.#session;
    try {
      if (session === undefined)
        throw new ConfigError("The session was never created", { code: "SESSION_CLOSED" });
      let value: unknown;
      if (method === "setPermissions") {
        // The main side may change the policy: it already answers this session's approvals.
        const set = await session.setPermissions(call.argument as PermissionPolicy);
        if (!set.ok) throw set.error;
        value = set.value;
      } else if (method === "switchBranch") {
        const switched = session.switchBranch(call.argument as string);
        if (!switched.ok) throw switched.error;
        value = switched.value;
      } else if (method === "export") value = session.export(call.argument as ExportOptions | undefined);
      else value = session[method]();
      this.#post({ t: "reply", id, value }, conn);
    } catch (error) {
      this.#post({ t: "reply", id, error: errorToWire(error) }, conn);
    }
  }

  /**
   * Ends the bridge: aborts and closes the session; `reply` when the main side asked for it. Called
   * again while it closes, it waits for the first.
   */
  async #end(reply: boolean): Promise<void> {
    if (this.#done || this.#closing) return this.closed;
    this.#closing = true;
    const session = await this.#session;
    this.#asker?.close();
    for (const connection of this.#connections.values())
      for (const run of connection.runs.values()) {
        run.controller.abort(new Error("The bridge closed"));
        run.outbox.discard();
      }
    await session?.close();
    if (reply) this.#post({ t: "closed" });
    this.#done = true;
    this.#stop();
    this.#finish();
  }

  close(): Promise<void> {
    return this.#end(true);
  }
}

/**
 * Serves a session over `port` (a `MessagePort`, `self` in a Web Worker, Node's `parentPort`, …) for
 * {@link connectSession} on the other side. The session is created when the main side connects, from
 * these options (and the state the main side passes to restore, if any).
 *
 * @example
 * ```ts no-run
 * // worker.ts
 * import { serveSession } from "wisp-agent/bridge";
 * serveSession(self, { model: "anthropic/claude-sonnet-5-5", apiKey: KEY, tools: [search] });
 * ```
 */
export function serveSession(port: BridgePort, options: ServeSessionOptions): SessionServer {
  const problem = checkServeOptions(options);
  if (problem !== undefined) throw problem;
  if (!isBridgePort(port))
    throw new ConfigError(
      "serveSession needs a port: something with postMessage and addEventListener or on",
      {
        code: "CONFIG_INVALID",
        path: "port",
      },
    );
  return new Server(port, options);
}
