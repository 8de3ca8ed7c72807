/**
 * The shapes of the main-thread side of the bridge: {@link ConnectSessionOptions}, what
 * `connectSession` takes, and {@link RemoteSession}, the session it gives, whose runs happen in the
 * worker.
 *
 * @module
 */

import type { AgentRun, AgentRunResult } from "../agent/agent-events.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import type { Result } from "../agent/result.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import type { ResumeOptions, SessionSnapshot } from "../session/agent-session.ts";
import type { ChatOptions } from "../session/session-options.ts";
import type { QueuedPrompt, SessionState } from "../session/session-state.ts";
import type { UserContentPart } from "../types.ts";
import type { BridgeReport, DecisionHandlers, DecisionKind } from "./decisions.ts";

/** Options of {@link connectSession}. */
export interface ConnectSessionOptions {
  /**
   * Answers the worker's questions (hooks and approvals), one handler per decision kind, each typed
   * for its kind's question and answer. The worker asks only the kinds given here; without it, it
   * asks nothing.
   */
  onDecision?: DecisionHandlers;
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
  /** The id of the session in the worker. */
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
  /** The session as plain JSON; a closed session or a gone worker is a failed Result (SESSION_CLOSED, BRIDGE_CLOSED). */
  export(): Promise<Result<SessionState, AnySdkError, undefined>>;
  /** A cheap look at the session (see `AgentSession.snapshot`), as a Result like `export`'s. */
  snapshot(): Promise<Result<SessionSnapshot, AnySdkError, undefined>>;
  /** Removes and returns the queued prompts (see `AgentSession.drainQueue`), as a Result like `export`'s. */
  drainQueue(): Promise<Result<QueuedPrompt[], AnySdkError, undefined>>;
  /** Closes the session in the worker and stops listening (never rejects); the worker itself is yours to end. */
  close(): Promise<void>;
}
