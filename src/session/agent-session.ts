/**
 * Layer `session` (docs/architecture.md): createAgentSession and createSession: one conversation, export and restore.
 *
 * `createAgentSession`: a conversation that lives across many runs, processes and machines. Runs go
 * one at a time; prompts that arrive meanwhile are steered into the run or queued after it; the whole
 * session exports to plain JSON and restores from it.
 *
 * This module holds the session's public face (`AgentSession`, and `Session`, whose methods hand off
 * to the modules that keep its state, run, resume and stop it) and the factory.
 *
 * @module
 */

import type { AgentRun, AgentRunResult } from "../agent/agent-events.ts";
import type { AgentConfig } from "../agent/agent-options.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import { checkSettings, missingPrice } from "../agent/check-config.ts";
import { type PermissionPolicy, resolvePermissions } from "../agent/permission-policy.ts";
import type { QuestionReply } from "../agent/questions.ts";
import type { Result } from "../agent/result.ts";
import { err } from "../agent/result-helpers.ts";
import { streamRun } from "../agent/run-agent.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import { classifyThrown } from "../errors/classify.ts";
import { messageOf } from "../errors/message-of.ts";
import { type AnySdkError, ConfigError, isSdkError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import { loadProvider, type ResolvedModel, resolveModel } from "../providers/registry.ts";
import type { UserContentPart } from "../types.ts";
import { asyncDispose } from "./async-dispose.ts";
import {
  type ExportOptions,
  exportBranch,
  listBranches,
  type SessionBranch,
  switchBranch,
} from "./branches.ts";
import { checkSessionOptions } from "./check-session-options.ts";
import { LiveState, type SessionSnapshot } from "./live-state.ts";
import { parseSessionState } from "./parse-session-state.ts";
import { ignore } from "./pending-run.ts";
import { verifiedApprovals } from "./restore-approvals.ts";
import type { SealedPolicy } from "./restore-permissions.ts";
import { sessionPolicy } from "./restore-permissions.ts";
import { verifiedQuestions } from "./restore-questions.ts";
import { abortSession, closeSession } from "./session-disposal.ts";
import type { ChatOptions, SessionOptions } from "./session-options.ts";
import { sessionConfig } from "./session-options.ts";
import { setPermissions as setSessionPermissions } from "./session-permissions.ts";
import { type ResumeOptions, resumeRun } from "./session-resume.ts";
import { drainQueue, submit } from "./session-runs.ts";
import type { QueuedPrompt, SessionState, SessionStateTail } from "./session-state.ts";

export type { ExportOptions, SessionBranch } from "./branches.ts";
export type { SessionSnapshot } from "./live-state.ts";
export type { ResumeOptions } from "./session-resume.ts";

/** A live agent session. `T`, the union of its tools' types, types the tool calls of its runs. */
export interface AgentSession<T extends AnyTool = AnyTool, O = unknown> extends AsyncDisposable {
  /** The session's id: the `sessionId` option, the restored state's, or a fresh random UUID. */
  readonly sessionId: string;
  /** Runs a prompt (or steers or queues it, see {@link ChatOptions}). Never throws. */
  chat<P = O>(input: string | UserContentPart[], options?: ChatOptions<P>): Promise<AgentRunResult<T, P>>;
  /** The same as `chat`, as a stream of events. */
  stream<P = O>(input: string | UserContentPart[], options?: ChatOptions<P>): AgentRun<T, P>;
  /**
   * Decides tool calls that wait for approval (the last run ended with stopReason `approval`) and
   * goes on: approved calls run — with the approver's `args` when given, checked by the tool's
   * schema — denied ones get an error result with the reason, and the run continues as `chat`'s
   * would. Calls left undecided pause the run again. Never throws: a decision that names no pending
   * call, repeats one, replays a used one, edits arguments badly, or approves a call of a tool this
   * session was not given (restored without its `tools`) refuses the whole resume with a ConfigError
   * `APPROVAL_INVALID`, and nothing runs. Questions the model asked (stopReason `question`, see
   * `askUserTool`) are answered in the same list: `{ toolCallId, answers }` or
   * `{ toolCallId, unanswered: true, reason? }`; an answer that does not fit its questions is
   * `APPROVAL_INVALID` too.
   */
  resume<P = O>(
    decisions: (ApprovalDecision<T> | QuestionReply)[],
    options?: ResumeOptions<P>,
  ): Promise<AgentRunResult<T, P>>;
  /** The same as `resume`, as a stream of events. */
  resumeStream<P = O>(
    decisions: (ApprovalDecision<T> | QuestionReply)[],
    options?: ResumeOptions<P>,
  ): AgentRun<T, P>;
  /** Aborts the run in flight and drops queued prompts. Synchronous and idempotent. */
  abort(reason?: unknown): void;
  /**
   * The session as plain JSON (during a run: up to the last completed turn), every branch kept; with
   * `{ branch }`, that branch's conversation alone (see docs/forks.md). Throws a ConfigError
   * `BRANCH_INVALID` for a `branch` that is no branch's leaf id.
   */
  export(options?: ExportOptions): SessionState;
  /** Every branch of the conversation (after forks: `chat(prompt, { parentId })`), the active one included, oldest first. */
  branches(): SessionBranch[];
  /**
   * Makes the branch that ends at `leafId` the active one (the one active before is kept as a branch)
   * and gives the branches again. Never throws: while a run is in flight (SESSION_BUSY), while calls
   * wait for approval (APPROVAL_PENDING) or for an id that is no branch's leaf (BRANCH_INVALID) it is a
   * failed Result, and nothing changes.
   */
  switchBranch(leafId: string): Result<SessionBranch[], ConfigError, undefined>;
  /**
   * What `export()` gives, with only the conversation's messages from index `from` on: what a store
   * that keeps messages one by one writes after a turn, so a save costs the new messages, not the
   * whole conversation. `from` beyond the exported conversation is taken as its end; check
   * `previousId` against the message you hold at `from - 1` (or use {@link joinStateTail}).
   *
   * `metadata` is set when the session is made (the restored state's, merged with the `metadata`
   * option) and never changes after, so a store may save it once per session object and ask for
   * tails without it (`{ metadata: false }`): an imported transcript keeps its original lines there,
   * which a save need not copy every turn.
   */
  exportTail(from: number): SessionStateTail;
  /**
   * `exportTail(from)` without the `metadata`, which never changes after the session is made: for a
   * store that saved it once for this session object.
   */
  exportTail(from: number, options: { metadata: false }): Omit<SessionStateTail, "metadata">;
  /** A cheap look at the session (status, counts, usage), without copying its conversation. */
  snapshot(): SessionSnapshot;
  /**
   * Removes and returns the prompts queued for after the run (their calls resolve ABORTED) and the
   * prompts a restored state had queued, which a session holds but never runs by itself: send them
   * again with `chat` to run them.
   */
  drainQueue(): QueuedPrompt[];
  /**
   * The permission policy in force (docs/permissions.md), every field filled in: the defaults
   * (`mode: "default"`, empty lists, `acceptClasses: ["edit"]`) when the session has none. A copy.
   */
  permissions(): Required<PermissionPolicy>;
  /**
   * Replaces the permission policy from the next run on (a paused run's resume included), kept in the
   * state and signed with the `approvalSecret`. Resolves to the policy now in force. Never rejects: an
   * invalid policy (ConfigError `CONFIG_INVALID`, `path` naming the field), a run in flight
   * (`SESSION_BUSY`: the policy changes between runs only) or a closed session (`SESSION_CLOSED`) is a
   * failed Result, and the policy stays as it was.
   */
  setPermissions(
    policy: PermissionPolicy,
  ): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>>;
  /** Aborts what runs, fires `sessionEnd`; later runs (`chat`, `stream`, `resume`) fail with SESSION_CLOSED. */
  close(): Promise<void>;
}

/** The session object: what it keeps is its `LiveState`; each method hands off to the module that does it. */
class Session implements AgentSession {
  readonly sessionId: string;
  readonly #state: LiveState;

  constructor(
    config: AgentConfig,
    resolved: ResolvedModel,
    options: SessionOptions,
    state: SessionState | undefined,
    policy?: SealedPolicy,
  ) {
    this.#state = new LiveState(config, resolved, options, state);
    this.sessionId = this.#state.sessionId;
    this.#state.policy = policy;
  }

  chat<O = unknown>(
    input: string | UserContentPart[],
    options: ChatOptions<O> = {},
  ): Promise<AgentRunResult<AnyTool, O>> {
    return submit(this.#state, input, options as ChatOptions, ignore) as Promise<AgentRunResult<AnyTool, O>>;
  }

  stream<O = unknown>(input: string | UserContentPart[], options: ChatOptions<O> = {}): AgentRun<AnyTool, O> {
    // Breaking out of the stream (or its abort()) aborts this run only: the stream's controller is the run's.
    return streamRun((emit, controller) =>
      submit(this.#state, input, options as ChatOptions, emit, controller),
    ) as AgentRun<AnyTool, O>;
  }

  resume<O = unknown>(
    decisions: (ApprovalDecision | QuestionReply)[],
    options: ResumeOptions<O> = {},
  ): Promise<AgentRunResult<AnyTool, O>> {
    return resumeRun(this.#state, decisions, options as ResumeOptions, ignore) as Promise<
      AgentRunResult<AnyTool, O>
    >;
  }

  resumeStream<O = unknown>(
    decisions: (ApprovalDecision | QuestionReply)[],
    options: ResumeOptions<O> = {},
  ): AgentRun<AnyTool, O> {
    return streamRun((emit, controller) =>
      resumeRun(this.#state, decisions, options as ResumeOptions, emit, controller),
    ) as AgentRun<AnyTool, O>;
  }

  abort(reason?: unknown): void {
    abortSession(this.#state, reason);
  }

  drainQueue(): QueuedPrompt[] {
    return drainQueue(this.#state);
  }

  export(options?: ExportOptions): SessionState {
    const state = this.#state.export();
    return options?.branch === undefined ? state : exportBranch(state, options.branch);
  }

  branches(): SessionBranch[] {
    return listBranches(this.#state);
  }

  switchBranch(leafId: string): Result<SessionBranch[], ConfigError, undefined> {
    return switchBranch(this.#state, leafId);
  }

  exportTail(from: number): SessionStateTail;
  exportTail(from: number, options: { metadata: false }): Omit<SessionStateTail, "metadata">;
  exportTail(from: number, options?: { metadata: false }): Omit<SessionStateTail, "metadata"> {
    return this.#state.exportTail(from, options?.metadata !== false);
  }

  snapshot(): SessionSnapshot {
    return this.#state.snapshot();
  }

  permissions(): Required<PermissionPolicy> {
    return resolvePermissions(this.#state.policy?.policy);
  }

  setPermissions(
    policy: PermissionPolicy,
  ): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>> {
    return setSessionPermissions(this.#state, policy);
  }

  close(): Promise<void> {
    return closeSession(this.#state);
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** The restored state, or a ConfigError at `restore` for a value the state parser could not even read. */
function restoredState(restore: unknown): SessionState {
  try {
    return parseSessionState(restore);
  } catch (error) {
    if (isSdkError(error)) throw error;
    throw new ConfigError(`restore is not a session state Wisp can read: ${messageOf(error)}`, {
      code: "CONFIG_INVALID",
      path: "restore",
      cause: error,
    });
  }
}

/**
 * Creates a session, new or restored from a SessionState. Never rejects: it resolves to the session,
 * or — when an option is unknown or of the wrong type, a parameter is out of the model's range
 * (`temperature`, `maxTokens`, `thinking`, limits), no model can be resolved, or `restore` is not a
 * valid state (`null`, a crafted object, a newer version, approvals edited or signed with another
 * secret) — to a failed Result whose ConfigError's `path` names the first problem. A missing `apiKey`
 * is not checked here: the first run that would send without one ends with that ConfigError, so a
 * restored session can still be exported or inspected without a key.
 *
 * @example
 * ```ts
 * const created = await createAgentSession({ model: "anthropic/claude-sonnet-5-5", apiKey, tools });
 * if (!created.ok) return new Response(created.error.message, { status: 400 });
 * await using session = created.value;
 * const first = await session.chat("Plan the trip");
 * await kv.put(session.sessionId, JSON.stringify(session.export()));
 * // later, anywhere: createAgentSession({ apiKey, tools, restore: JSON.parse(await kv.get(id)) })
 * ```
 */
export function createAgentSession<T extends AnyTool = AnyTool, O = unknown>(
  options: SessionOptions<T, O>,
): Promise<Result<AgentSession<T, O>, AnySdkError, undefined>>;
export async function createAgentSession(
  options: SessionOptions,
): Promise<Result<AgentSession, AnySdkError, undefined>> {
  try {
    return { ok: true, value: await openSession(options) };
  } catch (thrown) {
    // A ConfigError from the checks; anything else (the provider's code failed to load) classified.
    return err(classifyThrown(thrown, {}));
  }
}

/** The session `options` ask for; throws the first problem found. */
async function openSession(options: SessionOptions): Promise<AgentSession> {
  const problem = checkSessionOptions(options);
  if (problem !== undefined) throw problem;
  const state = options.restore === undefined ? undefined : restoredState(options.restore);
  const config = sessionConfig(options, state);
  const { provider, model } = resolveModel(config.model, config.provider);
  // A cost budget needs the model's price, which travels with the provider's code.
  const sessionCost = (options.sessionBudget ?? state?.parameters.sessionBudget)?.maxCostUsd;
  const prices =
    config.budget?.maxCostUsd === undefined && sessionCost === undefined
      ? undefined
      : (await loadProvider(provider)).prices;
  const refused =
    checkSettings(config, provider, model, prices) ??
    (sessionCost === undefined
      ? undefined
      : missingPrice("sessionBudget.maxCostUsd", model, config, prices ?? {}));
  if (refused !== undefined) throw refused;
  const restored =
    state === undefined
      ? undefined
      : await verifiedApprovals(
          // Questions first: they are verified under the id they were sealed with, which this rebinds.
          await verifiedQuestions(state, options.sessionId ?? state.sessionId, options.approvalSecret),
          options.sessionId ?? state.sessionId,
          options.approvalSecret,
        );
  // The id is fixed here, not in the session, so the permission policy can be signed for it.
  const sessionId = options.sessionId ?? state?.sessionId ?? randomId();
  // Undefined when neither the option nor the state has a policy (or a signature of one).
  const policy = await sessionPolicy(options.permissions, state, sessionId, options.approvalSecret);
  return new Session(config, { provider, model }, { ...options, sessionId }, restored, policy);
}
