/**
 * What a live session keeps (`LiveState`): its conversation, usage and turns, its queue and run in
 * flight, paused approvals and tool permissions, compaction; and what it shows of them: `export()`
 * (a SessionState) and `snapshot()` (a {@link SessionSnapshot}).
 *
 * @module
 */

import type { AgentRunResult } from "../agent/agent-events.ts";
import type { AgentConfig } from "../agent/agent-options.ts";
import type { Paused, ToolPermissions } from "../agent/approvals.ts";
import type { Budget, SessionBudget } from "../agent/budget.ts";
import type { Tool } from "../agent/define-tool.ts";
import { toolsByName } from "../agent/loop-setup.ts";
import { PrefixWatch } from "../agent/prefix-watch.ts";
import type { CompactionState } from "../compaction/compaction-state.ts";
import { randomId } from "../message/random-id.ts";
import type { ResolvedModel } from "../providers/registry.ts";
import type { StandardSchema } from "../schema/standard-schema.ts";
import { sendableLength } from "../state/tool-call-pairs.ts";
import type { JsonObject, Message, ProviderId, Usage, UserMessage } from "../types.ts";
import { addUsage, emptyUsage } from "../usage/usage.ts";
import type { CurrentRun, PendingRun } from "./pending-run.ts";
import type { SealedPolicy } from "./restore-permissions.ts";
import type { SessionOptions } from "./session-options.ts";
import {
  type QueuedPrompt,
  SESSION_STATE_VERSION,
  type SessionState,
  type SessionStateTail,
  type StoredBranch,
} from "./session-state.ts";

/** A cheap look at a session, without copying its conversation. */
export interface SessionSnapshot {
  /** The session's id. */
  sessionId: string;
  /** The wire API the session's model speaks. */
  provider: ProviderId;
  /** The model id, without the provider prefix. */
  model: string;
  /** `running` while a run is in flight, `closed` after `close()`, else `idle`. */
  status: "idle" | "running" | "closed";
  /** How many messages the conversation holds. */
  messageCount: number;
  /** The id of the conversation's last message, if it has any. */
  lastMessageId?: string;
  /** Model turns made in the session, over all its runs. */
  turns: number;
  /** The session's usage, summed over its runs, with cost in USD when the model's price is known. */
  usage: Usage;
  /** Prompts waiting to run: queued behind the run in flight, or held from a restored state. */
  queued: number;
  /** Tool calls waiting for approval (the session is paused while there are any). */
  pendingApprovals: number;
  /** Calls of the ask tool waiting for the person's answers (the session is paused while there are any). */
  pendingQuestions: number;
  /** The conversation's branches, the active one included (1 until a prompt forks it). */
  branches: number;
}

/**
 * Everything a live session keeps, new or restored from a SessionState. The modules that run,
 * resume, abort and close a session read and change it; the session object holds it privately.
 */
export class LiveState {
  readonly sessionId: string;
  readonly config: AgentConfig;
  /** The session's previous request, to tell prompt-cache misses. */
  readonly prefix = new PrefixWatch();
  readonly provider: ProviderId;
  readonly model: string;
  readonly messages: Message[];
  readonly createdAt: number;
  readonly metadata: JsonObject;
  updatedAt: number;
  usage: Usage;
  turns: number;
  queue: PendingRun[] = [];
  /** Prompts a restored state had queued: kept and exported, never run unless the caller sends them. */
  held: QueuedPrompt[];
  steering: UserMessage[] = [];
  current: CurrentRun | undefined;
  /** Whether `sessionStart` has fired (on the first run of this session object, new or restored). */
  started = false;
  closed = false;
  /** The calls waiting for approval, and the id of the assistant message that made them. */
  paused: Paused | undefined;
  pausedMessageId: string | undefined;
  permissions: ToolPermissions;
  /** Counts abort() calls, so a resume whose decisions were being checked meanwhile sees it. */
  aborts = 0;
  /** The signature of `permissions` (with an `approvalSecret`). */
  permissionsSignature: string | undefined;
  /** The permission policy (docs/permissions.md), filled in, and its signature; changed by `setPermissions`. */
  policy: SealedPolicy | undefined = undefined;
  /** Set while a resume's decisions are being checked: nothing else may start meanwhile. */
  resuming = false;
  readonly tools: ReadonlyMap<string, Tool<unknown>>;
  readonly approvalSecret: string | undefined;
  /** Limits on what all the session's runs spend together (the option, or what the restored state kept). */
  readonly sessionBudget: Budget | undefined;
  /** The per-call output schema of the run that paused, applied again by its resume. */
  pausedOutput: StandardSchema | undefined;
  /** The conversation's compaction, once there is one (requests send its summary for older messages). */
  compaction: CompactionState | undefined;
  /** The conversation's other branches, after forks (`messages` is the active one). */
  branches: StoredBranch[];

  constructor(
    config: AgentConfig,
    resolved: ResolvedModel,
    options: SessionOptions,
    state: SessionState | undefined,
  ) {
    this.config = config;
    this.provider = resolved.provider;
    this.model = resolved.model;
    const now = Date.now();
    this.sessionId = options.sessionId ?? state?.sessionId ?? randomId();
    this.messages = state?.messages ?? [];
    this.createdAt = state?.createdAt ?? now;
    this.updatedAt = state?.updatedAt ?? now;
    this.usage = state?.usage ?? emptyUsage();
    this.turns = state?.turns ?? 0;
    this.metadata = { ...state?.metadata, ...options.metadata };
    // A restored queue is held, not run: a state from elsewhere must not make this process spend
    // money unasked. It stays in export() until drainQueue() hands it to the caller, who decides.
    this.held = [...(state?.queue ?? [])];
    this.permissions = { ...state?.toolPermissions };
    this.permissionsSignature = state?.toolPermissionsSignature;
    this.compaction = state?.compaction;
    this.branches = state?.branches ?? [];
    this.tools = toolsByName(config);
    this.approvalSecret = options.approvalSecret;
    this.sessionBudget = options.sessionBudget ?? state?.parameters.sessionBudget;
    const questions = state?.pendingQuestions ?? [];
    if (state !== undefined && (state.pendingApprovals.length > 0 || questions.length > 0))
      this.setPaused({
        approvals: state.pendingApprovals,
        ...(questions.length > 0 ? { questions } : {}),
        results: state.pendingResults,
      });
  }

  /** Pauses on `paused`'s calls, made by the conversation's last message (or, undefined, unpauses). */
  setPaused(paused: Paused | undefined): void {
    this.paused = paused;
    this.pausedMessageId = paused === undefined ? undefined : this.messages.at(-1)?.id;
  }

  /** The session's budget as the next run sees it: the limits and what was spent so far. */
  budgetForRun(): SessionBudget | undefined {
    return this.sessionBudget === undefined ? undefined : { limits: this.sessionBudget, spent: this.usage };
  }

  /** Adds a finished run's usage and turns to the session's, once. */
  account(result: AgentRunResult): void {
    if (this.current === undefined || this.current.accounted) return;
    const value = result.ok ? result.value : result.partial;
    this.usage = addUsage(this.usage, value.usage);
    this.turns += value.turns;
    this.updatedAt = Date.now();
    this.current.accounted = true;
  }

  /** The session's usage with the run in flight's assistant messages among the first `count` counted. */
  #runUsage(count: number): Usage {
    if (this.current === undefined || this.current.accounted) return this.usage;
    let usage = this.usage;
    for (let index = this.current.firstIndex; index < count; index++) {
      const message = this.messages[index];
      if (message?.role === "assistant") usage = addUsage(usage, message.usage);
    }
    return usage;
  }

  /**
   * How many of the conversation's messages an export holds: all of them, but during a run not a
   * trailing assistant message whose tool calls are still running (paused calls are kept).
   */
  exportedCount(): number {
    const paused = this.paused !== undefined && this.messages.at(-1)?.id === this.pausedMessageId;
    return paused ? this.messages.length : sendableLength(this.messages);
  }

  /** Everything {@link export} gives but the messages, for an export of the first `count` messages. */
  #head(count: number): Omit<SessionState, "messages"> {
    const paused = count === this.messages.length && this.messages.at(-1)?.id === this.pausedMessageId;
    const pending = paused ? this.paused : undefined;
    const state: Omit<SessionState, "messages"> = {
      version: SESSION_STATE_VERSION,
      sessionId: this.sessionId,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      provider: this.provider,
      model: this.model,
      parameters: {},
      usage: this.#runUsage(count),
      turns: this.turns,
      queue: [...this.held, ...this.queue.map((run) => run.prompt)],
      metadata: this.metadata,
      pendingApprovals: pending?.approvals ?? [],
      pendingResults: pending?.results ?? [],
      ...(pending?.questions?.length ? { pendingQuestions: pending.questions } : {}),
      toolPermissions: { ...this.permissions },
    };
    if (this.permissionsSignature !== undefined) state.toolPermissionsSignature = this.permissionsSignature;
    if (this.policy !== undefined) state.permissions = this.policy.policy;
    if (this.policy?.signature !== undefined) state.permissionsSignature = this.policy.signature;
    // A compaction whose first kept message is not exported (a turn still in flight) waits for it.
    const compaction = this.compaction;
    if (compaction !== undefined && this.#indexOf(compaction.firstKeptId, count) !== -1)
      state.compaction = compaction;
    const config = this.config;
    if (config.systemPrompt !== undefined) state.systemPrompt = config.systemPrompt;
    if (config.thinking !== undefined) state.thinking = config.thinking;
    if (config.maxTokens !== undefined) state.parameters.maxTokens = config.maxTokens;
    if (config.temperature !== undefined) state.parameters.temperature = config.temperature;
    if (config.stopSequences !== undefined) state.parameters.stopSequences = config.stopSequences;
    if (config.maxTurns !== undefined) state.parameters.maxTurns = config.maxTurns;
    if (this.sessionBudget !== undefined) state.parameters.sessionBudget = this.sessionBudget;
    if (this.branches.length > 0) state.branches = this.branches;
    return state;
  }

  /** The index of the message `id` among the first `count`, searched from the end, or -1. */
  #indexOf(id: string, count: number): number {
    for (let index = count - 1; index >= 0; index--) if (this.messages[index]?.id === id) return index;
    return -1;
  }

  /** The session as plain JSON (during a run: up to the last completed turn), a deep copy. */
  export(): SessionState {
    const count = this.exportedCount();
    const state: SessionState = { ...this.#head(count), messages: this.messages.slice(0, count) };
    // A deep copy, so the caller may change it freely; through JSON because the state is plain JSON by
    // contract (and JSON copies it about 1.4x faster than structuredClone).
    return JSON.parse(JSON.stringify(state)) as SessionState;
  }

  /**
   * What {@link export} gives, with only the messages from `from` on (see `AgentSession.exportTail`),
   * a deep copy; without `metadata` unless `withMetadata`.
   */
  exportTail(from: number, withMetadata: boolean): Omit<SessionStateTail, "metadata"> {
    const count = this.exportedCount();
    const start = Math.min(Math.max(0, Math.floor(from) || 0), count);
    const { metadata, ...head } = this.#head(count);
    const tail: Omit<SessionStateTail, "metadata"> & { metadata?: JsonObject } = {
      ...head,
      ...(withMetadata ? { metadata } : {}),
      messagesFrom: start,
      messageCount: count,
      messages: this.messages.slice(start, count),
    };
    const previous = this.messages[start - 1];
    if (previous !== undefined) tail.previousId = previous.id;
    return JSON.parse(JSON.stringify(tail)) as SessionStateTail;
  }

  /** A cheap look at the session, without copying its conversation. */
  snapshot(): SessionSnapshot {
    const snapshot: SessionSnapshot = {
      sessionId: this.sessionId,
      provider: this.provider,
      model: this.model,
      status: this.closed ? "closed" : this.current === undefined ? "idle" : "running",
      messageCount: this.messages.length,
      turns: this.turns,
      usage: this.usage,
      queued: this.held.length + this.queue.length,
      pendingApprovals: this.paused?.approvals.length ?? 0,
      pendingQuestions: this.paused?.questions?.length ?? 0,
      branches: this.branches.length + 1,
    };
    const last = this.messages.at(-1);
    if (last !== undefined) snapshot.lastMessageId = last.id;
    return snapshot;
  }
}
