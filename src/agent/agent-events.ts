/**
 * What a run reports: its events as they happen, and its result at the end.
 *
 * @module
 */

import type { CompactionEvent } from "../compaction/compaction-state.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import type {
  JsonObject,
  JsonValue,
  Message,
  ProviderId,
  StopReason,
  ToolResultPart,
  TurnEvent,
  Usage,
} from "../types.ts";
import type { PendingApproval } from "./approvals.ts";
import type { HookEvent, HookFailurePolicy } from "./hooks.ts";
import type { Result } from "./result.ts";
import type { AnyTool, TypedToolCall } from "./typed-tool-call.ts";

/**
 * One tool call of a run and how it ended. With typed tools (`T`), narrowing on `toolCall.name` gives
 * that tool's arguments (see {@link TypedToolCall} for when they are unvalidated).
 */
export interface ToolCallRecord<T extends AnyTool = AnyTool> {
  /** The call as executed (after any `preToolUse` change to its input). */
  toolCall: TypedToolCall<T>;
  result: ToolResultPart;
  /** The turn (1-based) that asked for it. */
  turn: number;
  durationMs: number;
}

/**
 * The outcome of a run, complete or partial. Plain JSON. `T` types its tool calls, `O` its structured
 * output.
 */
export interface AgentResult<T extends AnyTool = AnyTool, O = unknown> {
  /** The text of the last assistant message. */
  text: string;
  /** The whole conversation: the messages given, then everything this run added. */
  messages: Message[];
  toolCalls: ToolCallRecord<T>[];
  /** Summed over this run's turns, with cost in USD when the model's price is known. */
  usage: Usage;
  /** `unknown` only when the model option named no known provider. */
  provider: ProviderId | "unknown";
  model: string;
  sessionId: string;
  stopReason: StopReason;
  /** Why a hook stopped the run, or which budget ended it. */
  stopDetail?: string;
  durationMs: number;
  /** Model turns made. */
  turns: number;
  /**
   * With stopReason `approval`: the tool calls that wait for a person, in the model's order. Decide
   * them with `session.resume(decisions)`.
   */
  pendingApprovals?: PendingApproval[];
  /** With `output: schema`: the final answer, parsed and validated by the schema. */
  output?: O;
}

/** What `runAgent` resolves to: never a throw. A failure carries the partial result. */
export type AgentRunResult<T extends AnyTool = AnyTool, O = unknown> = Result<AgentResult<T, O>, AnySdkError>;

/**
 * The events of a run, in order: `run-start`; per turn, the turn's own events (`turn-start` …
 * `turn-end` or `error`, see {@link TurnEvent}), then `tool-start` / `tool-result` per tool call, or
 * `approval-requested` for a call that waits for a person; `hook-decision` and `hook-error` where hooks act; `message` whenever a message joins the
 * conversation (the prompt, each assistant message, each batch of tool results, steered prompts);
 * `run-end` last, always. With typed tools (`T`), `tool-start` and `tool-result` narrow on
 * `toolCall.name` to that tool's arguments.
 */
export type AgentEvent<T extends AnyTool = AnyTool, O = unknown> =
  | { type: "run-start"; sessionId: string; provider: ProviderId; model: string }
  | Exclude<TurnEvent, { type: "turn-start" }>
  | { type: "turn-start"; turn: number; provider: ProviderId; model: string }
  | { type: "tool-start"; toolCall: TypedToolCall<T> }
  | {
      type: "tool-result";
      toolCall: TypedToolCall<T>;
      result: ToolResultPart;
      durationMs: number;
      error?: AnySdkError;
    }
  | { type: "approval-requested"; approval: PendingApproval }
  | { type: "hook-decision"; event: HookEvent; hook: string; decision: JsonObject }
  | { type: "hook-error"; event: HookEvent; hook: string; error: AnySdkError; policy: HookFailurePolicy }
  | { type: "message"; message: Message }
  /**
   * Structured output: the answer so far, while a turn writes it — objects and arrays with what has
   * arrived, the string being written cut where it is. Each is its own copy, sent when the text grew
   * by 5% (or 32 characters) since the last, and when it is whole. The final value, validated, is
   * `result.value.output`.
   */
  | { type: "output-partial"; turn: number; partial: JsonValue }
  /**
   * Before a turn: its request cannot read the prompt cache the previous request wrote, and why (the
   * model, the system prompt or the tools changed, or an earlier message is not the one sent before).
   */
  | { type: "cache-miss"; turn: number; reason: string }
  /** Older messages were summarized (see {@link CompactionEvent}). */
  | CompactionEvent
  | { type: "run-end"; result: AgentRunResult<T, O> };

/** A running agent: iterate it for events (once), await `.result`, or `.abort()` it. */
export interface AgentRun<T extends AnyTool = AnyTool, O = unknown> extends AsyncIterable<AgentEvent<T, O>> {
  /** Resolves when the run ends. Never rejects. */
  readonly result: Promise<AgentRunResult<T, O>>;
  /** Aborts the run (idempotent): the turn, the tools and the hooks in flight all get the signal. */
  abort(reason?: unknown): void;
}
