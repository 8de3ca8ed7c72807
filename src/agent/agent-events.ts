/**
 * What a run reports: its events as they happen, and its result at the end.
 *
 * @module
 */

import type { AnySdkError } from "../errors/sdk-error.ts";
import type {
  JsonObject,
  Message,
  ProviderId,
  StopReason,
  ToolCallPart,
  ToolResultPart,
  TurnEvent,
  Usage,
} from "../types.ts";
import type { HookEvent, HookFailurePolicy } from "./hooks.ts";
import type { Result } from "./result.ts";

/** One tool call of a run and how it ended. */
export interface ToolCallRecord {
  /** The call as executed (after any `preToolUse` change to its input). */
  toolCall: ToolCallPart;
  result: ToolResultPart;
  /** The turn (1-based) that asked for it. */
  turn: number;
  durationMs: number;
}

/** The outcome of a run, complete or partial. Plain JSON. */
export interface AgentResult {
  /** The text of the last assistant message. */
  text: string;
  /** The whole conversation: the messages given, then everything this run added. */
  messages: Message[];
  toolCalls: ToolCallRecord[];
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
}

/** What `runAgent` resolves to: never a throw. A failure carries the partial result. */
export type AgentRunResult = Result<AgentResult, AnySdkError>;

/**
 * The events of a run, in order: `run-start`; per turn, the turn's own events (`turn-start` …
 * `turn-end` or `error`, see {@link TurnEvent}), then `tool-start` / `tool-result` per tool call;
 * `hook-decision` and `hook-error` where hooks act; `message` whenever a message joins the
 * conversation (the prompt, each assistant message, each batch of tool results, steered prompts);
 * `run-end` last, always.
 */
export type AgentEvent =
  | { type: "run-start"; sessionId: string; provider: ProviderId; model: string }
  | Exclude<TurnEvent, { type: "turn-start" }>
  | { type: "turn-start"; turn: number; provider: ProviderId; model: string }
  | { type: "tool-start"; toolCall: ToolCallPart }
  | {
      type: "tool-result";
      toolCall: ToolCallPart;
      result: ToolResultPart;
      durationMs: number;
      error?: AnySdkError;
    }
  | { type: "hook-decision"; event: HookEvent; hook: string; decision: JsonObject }
  | { type: "hook-error"; event: HookEvent; hook: string; error: AnySdkError; policy: HookFailurePolicy }
  | { type: "message"; message: Message }
  | { type: "run-end"; result: AgentRunResult };

/** A running agent: iterate it for events (once), await `.result`, or `.abort()` it. */
export interface AgentRun extends AsyncIterable<AgentEvent> {
  /** Resolves when the run ends. Never rejects. */
  readonly result: Promise<AgentRunResult>;
  /** Aborts the run (idempotent): the turn, the tools and the hooks in flight all get the signal. */
  abort(reason?: unknown): void;
}
