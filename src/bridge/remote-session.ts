/**
 * The shapes of the main-thread side of the bridge: {@link ConnectSessionOptions}, what
 * `connectSession` takes, and {@link RemoteSession}, the session it gives, whose runs happen in the
 * worker.
 *
 * @module
 */

import type { AgentRun, AgentRunResult } from "../agent/agent-events.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import type { PermissionPolicy } from "../agent/permission-policy.ts";
import type { QuestionReply } from "../agent/questions.ts";
import type { Result } from "../agent/result.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import type {
  ExportOptions,
  ResumeOptions,
  SessionBranch,
  SessionSnapshot,
} from "../session/agent-session.ts";
import type { ChatOptions } from "../session/session-options.ts";
import type { QueuedPrompt, SessionState } from "../session/session-state.ts";
import type { UserContentPart } from "../types.ts";
import type { BridgeReport, DecisionHandlers, DecisionKind } from "./decisions.ts";
import type { HookFeedEvent, HookFeedListener } from "./hook-feed.ts";

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
  resume(decisions: (ApprovalDecision | QuestionReply)[], options?: ResumeOptions): Promise<AgentRunResult>;
  /** The same as `resume`, as a stream of events. */
  resumeStream(decisions: (ApprovalDecision | QuestionReply)[], options?: ResumeOptions): AgentRun;
  /**
   * Observes every hook event of the session in the worker — whichever connection's run — with the
   * hints of a decision request (`expectsDecision` and `canBlock` false): see {@link HookFeedEvent}.
   * Observe-only: nothing a listener does or returns reaches the worker, and one that throws is
   * reported (`HOOK_LISTENER_FAILED`). The first listener starts the worker's feed for this connection,
   * removing the last stops it; until then the worker sends none. Returns the function that removes
   * `listener`. A listener that is not a function is a ConfigError.
   */
  onHookEvent(listener: HookFeedListener): () => void;
  /** Aborts what runs in the worker and drops queued prompts. */
  abort(reason?: unknown): void;
  /**
   * The session as plain JSON (with `{ branch }`, one branch alone: see `AgentSession.export`); a closed
   * session or a gone worker is a failed Result (SESSION_CLOSED, BRIDGE_CLOSED), and so is an unknown
   * branch (BRANCH_INVALID).
   */
  export(options?: ExportOptions): Promise<Result<SessionState, AnySdkError, undefined>>;
  /** The conversation's branches (see `AgentSession.branches`), as a Result like `export`'s. */
  branches(): Promise<Result<SessionBranch[], AnySdkError, undefined>>;
  /**
   * Makes the branch ending at `leafId` the active one in the worker (see `AgentSession.switchBranch`)
   * and gives the branches again, as a Result like `export`'s.
   */
  switchBranch(leafId: string): Promise<Result<SessionBranch[], AnySdkError, undefined>>;
  /** A cheap look at the session (see `AgentSession.snapshot`), as a Result like `export`'s. */
  snapshot(): Promise<Result<SessionSnapshot, AnySdkError, undefined>>;
  /** Removes and returns the queued prompts (see `AgentSession.drainQueue`), as a Result like `export`'s. */
  drainQueue(): Promise<Result<QueuedPrompt[], AnySdkError, undefined>>;
  /** The permission policy in force in the worker (see `AgentSession.permissions`), as a Result like `export`'s. */
  permissions(): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>>;
  /**
   * Replaces the worker session's permission policy from its next run on (see
   * `AgentSession.setPermissions`): a UI's "always allow this tool" is `setPermissions({ ...policy,
   * allow: [...policy.allow, name] })`. A policy that is not valid is refused here, before it is sent.
   */
  setPermissions(
    policy: PermissionPolicy,
  ): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>>;
  /** Closes the session in the worker and stops listening (never rejects); the worker itself is yours to end. */
  close(): Promise<void>;
}
