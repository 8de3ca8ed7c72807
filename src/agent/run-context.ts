/**
 * The state one run shares between the loop, the tool runner, the hooks, resume and compaction: the run
 * context, the loop's setup and its totals. Owned here, below all of them, so none imports the loop.
 *
 * @module
 */

import type { CompactionState } from "../compaction/compaction-state.ts";
import type { Compactor } from "../compaction/compactor.ts";
import type { RunOutput } from "../output/run-output.ts";
import type { TurnOptions } from "../stream/turn-options.ts";
import type { Message, ModelRequest, Usage, UserMessage } from "../types.ts";
import type { AgentEvent, ToolCallRecord } from "./agent-events.ts";
import type { ToolPermissions } from "./approvals.ts";
import type { Budget, SessionBudget } from "./budget.ts";
import type { Tool } from "./define-tool.ts";
import type { Hooks } from "./hooks.ts";
import type { PolicyDecider } from "./permission-policy.ts";
import type { PrefixWatch } from "./prefix-watch.ts";
import type { RunTrace } from "./run-trace.ts";

/** What the parts of a run share. `messages` and `turn` change as the run goes on. */
export interface RunContext {
  sessionId: string;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  hooks: Hooks | undefined;
  /** The conversation, appended to as the run goes. */
  messages: Message[];
  /** Model turns made so far in this run. */
  turn: number;
  tools: ReadonlyMap<string, Tool<unknown>>;
  toolTimeoutMs: number;
  /** Run a turn's tool calls one after another instead of together. */
  sequentialTools: boolean;
  /** Standing answers per tool ("always allow" / "always deny"), the session's; changed by resume. */
  permissions?: ToolPermissions;
  /** The permission policy the run's tool calls are decided by (its `permissions` option, or the session's). */
  policy?: PolicyDecider;
  /** Messages to deliver at the next safe point (after a turn's tools, or when the model stops). */
  takeSteering?: () => UserMessage[];
  /** The previous request of the session (or run), to tell a prompt-cache miss and why. */
  prefix?: PrefixWatch;
  /** The summary that stands for older messages in requests, once the conversation was compacted. */
  compaction?: CompactionState;
  /** Told of each new compaction (a session keeps it). */
  onCompaction?: (state: CompactionState) => void;
  /** The run's spans, with a `telemetry` option (its tool calls' contexts come from it). */
  trace?: RunTrace;
}

/** Appends messages to the conversation and reports each in a `message` event. */
export function appendMessages(run: Pick<RunContext, "messages" | "emit">, ...messages: Message[]): void {
  for (const message of messages) {
    run.messages.push(message);
    run.emit({ type: "message", message });
  }
}

/** What the loop needs besides the run context. */
export interface LoopSetup {
  /** The request, less the messages (they come from the run context each turn). */
  request: Omit<ModelRequest, "messages">;
  /** How to reach the model; the loop adds the signal and the event forwarding. */
  turnOptions: Omit<TurnOptions, "signal" | "onEvent">;
  budget: Budget | undefined;
  /** The session's budget, for a session's run that has one. */
  sessionBudget?: SessionBudget;
  maxTurns: number;
  maxStopBlocks: number;
  /** Structured output, when the run asks for it (loaded on demand). */
  output?: RunOutput;
  /** Compaction, when the run asks for it (loaded on demand). */
  compaction?: Compactor<RunContext>;
}

/** Totals the loop keeps as it goes. */
export interface LoopTally {
  usage: Usage;
  toolCalls: ToolCallRecord[];
  /** The validated structured answer, once there is one. */
  output?: unknown;
}
