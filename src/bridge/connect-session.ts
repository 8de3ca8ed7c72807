/**
 * The main-thread side of the bridge: `connectSession(port, options)` greets the worker (a versioned
 * handshake), then gives an object with the session's shape whose runs happen in the worker. The
 * worker's questions come to `onDecision`; errors come back as real SdkErrors. If the worker goes
 * away — it exits, the port closes, or it stops answering while something waits on it — every call
 * that waits ends with a RequestError `BRIDGE_CLOSED`: nothing hangs.
 *
 * @module
 */

import type { AgentRun, AgentRunResult } from "../agent/agent-events.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import { MAX_TIMER_MS } from "../agent/deadline.ts";
import { showValue } from "../config/show-value.ts";
import { messageOf } from "../errors/message-of.ts";
import { type AnySdkError, ConfigError, RequestError } from "../errors/sdk-error.ts";
import type { ResumeOptions, SessionSnapshot } from "../session/agent-session.ts";
import { type ChatOptions, checkChatOptions, checkResumeOptions } from "../session/session-options.ts";
import type { QueuedPrompt, SessionState } from "../session/session-state.ts";
import type { UserContentPart } from "../types.ts";
import { checkConnectOptions } from "./bridge-options.ts";
import { errorFromWire, eventFromWire } from "./cloneable.ts";
import {
  type BridgeReport,
  DECISION_KINDS,
  type DecisionHandler,
  type DecisionKind,
  type DecisionRequest,
  failsClosed,
} from "./decisions.ts";
import { type BridgePort, isBridgePort, listen } from "./endpoint.ts";
import {
  BRIDGE_PROTOCOL_VERSION,
  bridgeMessage,
  type Envelope,
  envelope,
  type MainMessage,
  type RunRequestOptions,
  type WorkerMessage,
} from "./protocol.ts";
import { RemoteRun } from "./remote-run.ts";

/** Why `answer` is not an approval answer, or undefined (nothing is an answer too: it denies). */
function notApprovalAnswer(answer: unknown): string | undefined {
  if (answer === undefined) return undefined;
  const given = answer as { approved?: unknown; reason?: unknown; args?: unknown } | null;
  const ok =
    typeof given === "object" &&
    given !== null &&
    typeof given.approved === "boolean" &&
    (given.reason === undefined || typeof given.reason === "string") &&
    (given.args === undefined ||
      (typeof given.args === "object" && given.args !== null && !Array.isArray(given.args)));
  return ok
    ? undefined
    : `an approval is answered with { approved: true | false, reason?: string, args?: object }, got ${showValue(answer)}`;
}

/** A schema is code: it cannot cross the port, so per-run structured output is set where the session runs. */
function schemaAcrossPort(output: unknown): ConfigError | undefined {
  if (output === undefined) return undefined;
  return new ConfigError(
    "output (a schema) cannot cross the port: give output to serveSession's session options in the worker",
    { code: "CONFIG_INVALID", path: "output" },
  );
}

/** Options of {@link connectSession}. */
export interface ConnectSessionOptions {
  /** Answers the worker's questions (hooks and approvals); without it, the worker asks nothing. */
  onDecision?: DecisionHandler;
  /** The kinds `onDecision` answers. Default: all of them. */
  decisionKinds?: DecisionKind[];
  /** How long the worker waits for each kind's answer (defaults: approvals 300 s, others 10 s). */
  decisionTimeoutsMs?: Partial<Record<DecisionKind, number>>;
  /** A SessionState (plain data) the worker restores its session from, checked there as any restore. */
  restore?: unknown;
  /** Told what the bridge noticed and ignored. Default: `console.warn`. */
  onReport?: (report: BridgeReport) => void;
  /** How long the worker may take to answer the handshake. Default 10,000 ms. */
  connectTimeoutMs?: number;
  /**
   * How long the worker may stay silent while a call waits on it before it counts as gone (it is
   * asked every second or so). A worker whose event loop is blocked this long counts as gone too.
   * Default 10,000 ms.
   */
  workerTimeoutMs?: number;
  /**
   * Events a stream lets the worker send ahead of its consumer. A slow consumer holds the worker to
   * this many in flight; what waits there merges deltas. Default 256.
   */
  window?: number;
}

/** A session in a worker, from the main thread: the session's shape, with `export` and friends async. */
export interface RemoteSession extends AsyncDisposable {
  readonly sessionId: string;
  /** Runs a prompt in the worker. Never throws; a gone worker is a RequestError `BRIDGE_CLOSED` result. */
  chat(input: string | UserContentPart[], options?: ChatOptions): Promise<AgentRunResult>;
  /** The same as `chat`, as a stream of events (ending with `run-end`). */
  stream(input: string | UserContentPart[], options?: ChatOptions): AgentRun;
  /** Decides tool calls that wait for approval and goes on (see `AgentSession.resume`). */
  resume(decisions: ApprovalDecision[], options?: ResumeOptions): Promise<AgentRunResult>;
  /** The same as `resume`, as a stream of events. */
  resumeStream(decisions: ApprovalDecision[], options?: ResumeOptions): AgentRun;
  /** Aborts what runs in the worker and drops queued prompts. */
  abort(reason?: unknown): void;
  /** The session as plain JSON. Rejects with an SdkError (SESSION_CLOSED, BRIDGE_CLOSED). */
  export(): Promise<SessionState>;
  snapshot(): Promise<SessionSnapshot>;
  drainQueue(): Promise<QueuedPrompt[]>;
  /** Closes the session in the worker and stops listening; the worker itself is yours to end. */
  close(): Promise<void>;
}

const DEFAULT_WINDOW = 256;

type Call = { resolve: (value: unknown) => void; reject: (error: AnySdkError) => void };

class Client implements RemoteSession {
  sessionId = "";
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
  readonly #key = crypto.randomUUID();
  readonly #conn = crypto.randomUUID();
  #stop: () => void = () => {};
  #next = 0;
  /** Heartbeat ticks since a ping went unanswered (undefined: none waits). Ticks, not wall time, so a
   *  busy or throttled main thread never takes a slow answer for a gone worker. */
  #unanswered: number | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** The last error the worker itself reported (Node's `error` event), for the BRIDGE_CLOSED message. */
  #workerError: string | undefined;
  #gone: AnySdkError | undefined;
  #handshake: Call | undefined;

  constructor(port: BridgePort, options: ConnectSessionOptions) {
    this.#port = port;
    this.#options = options;
    this.#report = options.onReport ?? ((report) => console.warn(`wisp-agent/bridge: ${report.message}`));
    this.#kinds = new Set(options.onDecision === undefined ? [] : (options.decisionKinds ?? DECISION_KINDS));
  }

  /** Greets the worker; resolves once it answered ready. */
  connect(): Promise<this> {
    return new Promise<this>((resolve, reject) => {
      const timeoutMs = this.#options.connectTimeoutMs ?? 10_000;
      const why = `no answer to the handshake within ${timeoutMs} ms (is serveSession running there?)`;
      const timer = timeoutMs > MAX_TIMER_MS ? undefined : setTimeout(() => this.#goAway(why), timeoutMs);
      this.#handshake = {
        resolve: () => {
          if (timer !== undefined) clearTimeout(timer);
          resolve(this);
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
    const hello: MainMessage = {
      t: "hello",
      conn: this.#conn,
      decides: [...this.#kinds],
      timeouts: { ...this.#options.decisionTimeoutsMs },
    };
    if (this.#options.restore !== undefined) hello.restore = this.#options.restore;
    return this.#post(hello);
  }

  /**
   * Posts `message`; false when the port refused it, for example data that cannot be cloned (reported
   * unless `report` is false: the caller then says so itself).
   */
  #post(message: MainMessage, report = true): boolean {
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
    this.#unanswered = undefined;
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
        this.sessionId = message.sessionId;
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
        void this.#decide(message);
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
        this.#fail(new ConfigError("The session was closed", { code: "SESSION_CLOSED" }), true);
        return;
      case "pong":
        return;
    }
  }

  async #decide(question: Extract<WorkerMessage, { t: "decide" }>): Promise<void> {
    const { requestId, kind, expectsDecision, canBlock, timeoutMs } = question;
    const payload = (
      typeof question.payload === "object" && question.payload !== null ? question.payload : {}
    ) as Record<string, unknown>;
    const hints = {
      requestId,
      rawKind: kind,
      expectsDecision,
      canBlock,
      timeoutMs,
      sessionId: "",
      turn: 0,
      ...payload,
    };
    const known = (DECISION_KINDS as readonly string[]).includes(kind);
    const request = (
      known ? { ...hints, kind } : { ...hints, kind: "unknown", payload: question.payload }
    ) as DecisionRequest;
    const handler = this.#options.onDecision;
    try {
      if (handler === undefined) throw new Error("no onDecision handler on the main thread");
      const answer = await handler(request);
      const wrong = kind === "approval" ? notApprovalAnswer(answer) : undefined;
      if (wrong !== undefined) throw new Error(wrong);
      if (!this.#post({ t: "decision", requestId, answer }, false))
        throw new Error("its answer could not be posted (is it plain data?)");
    } catch (error) {
      const why = messageOf(error);
      const outcome = failsClosed(kind) ? "the call was denied" : "the run went on";
      this.#report({
        code: "DECISION_HANDLER_FAILED",
        message: `onDecision failed on the ${kind} question (${outcome}): ${why}`,
        requestId,
      });
      this.#post({ t: "decision", requestId, failed: why });
    }
  }

  /**
   * Watches for a silent worker while anything waits on it: a ping each tick, and the worker counts as
   * gone when a ping stays unanswered for `workerTimeoutMs` worth of ticks.
   */
  #watch(): void {
    if (this.#heartbeat !== undefined) return;
    const limit = this.#options.workerTimeoutMs ?? 10_000;
    if (limit > MAX_TIMER_MS) return;
    const tick = Math.max(10, Math.min(1000, limit / 4));
    const patience = Math.ceil(limit / tick);
    this.#unanswered = undefined;
    this.#heartbeat = setInterval(() => {
      if (this.#runs.size === 0 && this.#calls.size === 0) {
        if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
        this.#heartbeat = undefined;
        return;
      }
      if (this.#unanswered === undefined) {
        this.#unanswered = 0;
        this.#post({ t: "ping" });
      } else if (++this.#unanswered >= patience) {
        // Best effort: a worker that is only slow stops spending on a session nobody waits for.
        this.#post({ t: "close", id: "given-up" });
        this.#goAway(`the worker did not answer for ${limit} ms`);
      }
    }, tick);
  }

  #goAway(why: string): void {
    const after = this.#workerError === undefined ? "" : ` (after it reported: ${this.#workerError})`;
    this.#fail(new RequestError(`The session's worker is gone: ${why}${after}`, { code: "BRIDGE_CLOSED" }));
  }

  /** Ends everything that waits with `error`; `closed` when the worker confirmed a close. */
  #fail(error: AnySdkError, closed = false): void {
    if (this.#gone !== undefined) return;
    this.#gone = error;
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#stop();
    this.#handshake?.reject(error);
    this.#handshake = undefined;
    for (const run of [...this.#runs.values()]) run.fail(error);
    this.#runs.clear();
    for (const [id, call] of [...this.#calls]) {
      this.#calls.delete(id);
      if (closed && id.startsWith("close")) call.resolve(undefined);
      else call.reject(error);
    }
  }

  /**
   * Starts a run in the worker. Never throws: bad options (checked here, as the session would) and a
   * gone worker give a run that has already ended with the error.
   */
  #run(
    request: Omit<Extract<MainMessage, { t: "run" }>, "t" | "id" | "window" | "quiet" | "options">,
    options: unknown,
    quiet: boolean,
  ): RemoteRun {
    const id = `run-${++this.#next}`;
    const window = quiet ? 0 : (this.#options.window ?? DEFAULT_WINDOW);
    let signal: AbortSignal | undefined;
    const onAbort = () => run.abort(signal?.reason);
    const run = new RemoteRun(
      this.sessionId,
      {
        credit: (n) => this.#post({ t: "credit", id, n }),
        abort: (reason) => this.#post({ t: "abort", id, reason: messageOf(reason) }),
        ended: () => {
          this.#runs.delete(id);
          signal?.removeEventListener("abort", onAbort);
        },
      },
      window,
    );
    const problem =
      request.op === "resume"
        ? checkResumeOptions(options)
        : (checkChatOptions(options) ?? schemaAcrossPort((options as ChatOptions | undefined)?.output));
    const failure = problem ?? this.#gone;
    if (failure !== undefined) {
      run.fail(failure);
      return run;
    }
    const { signal: given, ...rest } = (options ?? {}) as ChatOptions;
    signal = given;
    this.#runs.set(id, run);
    this.#watch();
    if (!this.#post({ ...request, t: "run", id, window, quiet, options: rest as RunRequestOptions }, false)) {
      const what = request.op === "resume" ? "decisions" : "input";
      run.fail(
        new ConfigError(
          `The run's ${what} (or its options) could not be posted to the worker: they must be plain data (no functions or class instances)`,
          { code: "CONFIG_INVALID", path: what },
        ),
      );
      return run;
    }
    if (signal?.aborted) run.abort(signal.reason);
    else signal?.addEventListener("abort", onAbort, { once: true });
    return run;
  }

  #call(method: "export" | "snapshot" | "drainQueue" | "close"): Promise<unknown> {
    if (this.#gone !== undefined) return Promise.reject(this.#gone);
    const id = `${method}-${++this.#next}`;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      this.#watch();
      this.#post(method === "close" ? { t: "close", id } : { t: "call", id, method });
    });
  }

  stream(input: string | UserContentPart[], options?: ChatOptions): AgentRun {
    return this.#run({ op: "chat", input }, options, false);
  }

  chat(input: string | UserContentPart[], options?: ChatOptions): Promise<AgentRunResult> {
    return this.#run({ op: "chat", input }, options, true).result;
  }

  resumeStream(decisions: ApprovalDecision[], options?: ResumeOptions): AgentRun {
    return this.#run({ op: "resume", decisions }, options, false);
  }

  resume(decisions: ApprovalDecision[], options?: ResumeOptions): Promise<AgentRunResult> {
    return this.#run({ op: "resume", decisions }, options, true).result;
  }

  abort(reason?: unknown): void {
    this.#post(reason === undefined ? { t: "abort" } : { t: "abort", reason: messageOf(reason) });
  }

  export(): Promise<SessionState> {
    return this.#call("export") as Promise<SessionState>;
  }

  snapshot(): Promise<SessionSnapshot> {
    return this.#call("snapshot") as Promise<SessionSnapshot>;
  }

  drainQueue(): Promise<QueuedPrompt[]> {
    return this.#call("drainQueue") as Promise<QueuedPrompt[]>;
  }

  async close(): Promise<void> {
    if (this.#gone !== undefined) return;
    await this.#call("close");
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Connects to a session served by {@link serveSession} on the other side of `port` (a `Worker`, a
 * `MessagePort`, Node's `worker_threads` `Worker`, …). Resolves once the worker's session is ready;
 * rejects with the worker's ConfigError if it could not create it, a ConfigError `BRIDGE_VERSION`
 * if the two sides speak different protocol versions, or a RequestError `BRIDGE_CLOSED` if nobody
 * answers.
 *
 * @example
 * ```ts no-run
 * import { connectSession } from "wisp-agent/bridge";
 * const session = await connectSession(new Worker("./agent-worker.js", { type: "module" }), {
 *   onDecision: async (request) =>
 *     request.kind === "approval" ? { approved: confirm(`Run ${request.approval.toolName}?`) } : undefined,
 * });
 * for await (const event of session.stream("Tidy my notes")) if (event.type === "text-delta") show(event.delta);
 * ```
 */
export function connectSession(
  port: BridgePort,
  options: ConnectSessionOptions = {},
): Promise<RemoteSession> {
  const problem = checkConnectOptions(options);
  if (problem !== undefined) return Promise.reject(problem);
  if (!isBridgePort(port))
    return Promise.reject(
      new ConfigError("connectSession needs a port: something with postMessage and addEventListener or on", {
        code: "CONFIG_INVALID",
        path: "port",
      }),
    );
  return new Client(port, options).connect();
}
