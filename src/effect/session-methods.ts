/**
 * The methods of an Effect session: each call of the Promise session as an Effect or a Stream.
 *
 * @module
 */

import * as Effect from "effect/Effect";
import type * as Stream from "effect/Stream";
import type { AgentEvent, AgentResult } from "../agent/agent-events.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import type { PermissionPolicy } from "../agent/permission-policy.ts";
import type { QuestionReply } from "../agent/questions.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import type {
  AgentSession,
  ResumeOptions,
  SessionBranch,
  SessionSnapshot,
} from "../session/agent-session.ts";
import type { ChatOptions } from "../session/session-options.ts";
import type { QueuedPrompt, SessionState } from "../session/session-state.ts";
import type { UserContentPart } from "../types.ts";
import { withFiberSignal } from "./abort-signals.ts";
import { runEffect } from "./run-effect.ts";
import { streamEffect } from "./stream-effect.ts";

/**
 * A session whose calls are Effects (from {@link createAgentSessionEffect}). The runs fail with Wisp's
 * tagged errors (a failed run's partial result is `partialOf(error)`); interrupting a run's fiber, or
 * a stream's consumer, aborts that run. `T`, the union of the tools' types, types the tool calls.
 */
export interface AgentSessionEffect<T extends AnyTool = AnyTool> {
  /** The session's id. */
  readonly sessionId: string;
  /**
   * Runs a prompt (steered into, or queued after, a run in flight with `mode`). Interrupting it aborts
   * its run and waits for the run to settle — except a steered prompt, whose run belongs to another
   * call: interrupting that one only stops waiting.
   */
  chat(input: string | UserContentPart[], options?: ChatOptions): Effect.Effect<AgentResult<T>, AnySdkError>;
  /** The same as `chat`, as a Stream of the run's events (a failed run's end is the stream's failure). */
  stream(input: string | UserContentPart[], options?: ChatOptions): Stream.Stream<AgentEvent<T>, AnySdkError>;
  /** Decides the tool calls that wait for approval and goes on (see `AgentSession.resume`). */
  resume(
    decisions: (ApprovalDecision<T> | QuestionReply)[],
    options?: ResumeOptions,
  ): Effect.Effect<AgentResult<T>, AnySdkError>;
  /** The same as `resume`, as a Stream of the run's events. */
  resumeStream(
    decisions: (ApprovalDecision<T> | QuestionReply)[],
    options?: ResumeOptions,
  ): Stream.Stream<AgentEvent<T>, AnySdkError>;
  /** The session as plain JSON (during a run: up to the last completed turn). */
  export(): Effect.Effect<SessionState>;
  /** A cheap look at the session. */
  snapshot(): Effect.Effect<SessionSnapshot>;
  /** The conversation's branches, after forks (see `AgentSession.branches`). */
  branches(): Effect.Effect<SessionBranch[]>;
  /**
   * Makes the branch ending at `leafId` the active one (see `AgentSession.switchBranch`); fails with its
   * ConfigError (`BRANCH_INVALID`, `SESSION_BUSY`, `APPROVAL_PENDING`).
   */
  switchBranch(leafId: string): Effect.Effect<SessionBranch[], AnySdkError>;
  /** Aborts the run in flight and drops queued prompts (their calls fail with an AbortError). */
  abort(reason?: unknown): Effect.Effect<void>;
  /** Removes and returns the queued prompts (see `AgentSession.drainQueue`). */
  drainQueue(): Effect.Effect<QueuedPrompt[]>;
  /** The permission policy in force (see `AgentSession.permissions`). */
  permissions(): Effect.Effect<Required<PermissionPolicy>>;
  /**
   * Replaces the permission policy from the next run on (see `AgentSession.setPermissions`); fails with
   * its ConfigError (`CONFIG_INVALID`, `SESSION_BUSY`, `SESSION_CLOSED`).
   */
  setPermissions(policy: PermissionPolicy): Effect.Effect<Required<PermissionPolicy>, AnySdkError>;
  /**
   * Closes the session before its scope does (the scope's close is then a no-op); later calls fail
   * with a ConfigError `SESSION_CLOSED`.
   */
  close(): Effect.Effect<void>;
  /** The Promise session underneath, for what this face does not wrap. */
  readonly promises: AgentSession<T>;
}

/** The Effect face of `session`. */
export function sessionEffect<T extends AnyTool>(session: AgentSession<T>): AgentSessionEffect<T> {
  return {
    sessionId: session.sessionId,
    chat: (input, options = {}) => {
      // Read defensively: a plain-JavaScript caller's `null` is refused by the session, not thrown here.
      const steered = (options as ChatOptions | null)?.mode === "steer";
      return runEffect((signal) => session.chat(input, withFiberSignal(options, signal)), !steered);
    },
    stream: (input, options) =>
      streamEffect(
        () => session.stream(input, options),
        (options as ChatOptions | null | undefined)?.mode !== "steer",
      ),
    resume: (decisions, options = {}) =>
      runEffect((signal) => session.resume(decisions, withFiberSignal(options, signal))),
    resumeStream: (decisions, options) => streamEffect(() => session.resumeStream(decisions, options)),
    export: () => Effect.sync(() => session.export()),
    snapshot: () => Effect.sync(() => session.snapshot()),
    branches: () => Effect.sync(() => session.branches()),
    switchBranch: (leafId) =>
      Effect.suspend(() => {
        const switched = session.switchBranch(leafId);
        return switched.ok ? Effect.succeed(switched.value) : Effect.fail(switched.error);
      }),
    abort: (reason) => Effect.sync(() => session.abort(reason)),
    drainQueue: () => Effect.sync(() => session.drainQueue()),
    permissions: () => Effect.sync(() => session.permissions()),
    setPermissions: (policy) =>
      Effect.flatMap(
        Effect.promise(() => session.setPermissions(policy)),
        (set) => (set.ok ? Effect.succeed(set.value) : Effect.fail(set.error)),
      ),
    close: () => Effect.promise(() => session.close()),
    promises: session,
  };
}
