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
import type { PendingApproval, TypedPendingApproval } from "./approvals.ts";
import type { DecidedBy } from "./decided-by.ts";
import type { HookEvent, HookFailurePolicy } from "./hooks.ts";
import type { PermissionVerdict } from "./permission-policy.ts";
import type { PendingQuestion } from "./questions.ts";
import type { Result } from "./result.ts";
import type { AnyTool, TypedToolCall } from "./typed-tool-call.ts";

/**
 * One tool call of a run and how it ended. With typed tools (`T`), narrowing on `toolCall.name` gives
 * that tool's arguments (see {@link TypedToolCall} for when they are unvalidated).
 */
export interface ToolCallRecord<T extends AnyTool = AnyTool> {
  /** The call as executed (after any `preToolUse` change to its input). */
  toolCall: TypedToolCall<T>;
  /** The result the model got (after any hook's change); `isError` when the call failed or was not run. */
  result: ToolResultPart;
  /** The turn (1-based) that asked for it. */
  turn: number;
  /** How long the call took, hooks included, in milliseconds. */
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
  /** Every tool call this run made, turn by turn in the model's order. */
  toolCalls: ToolCallRecord<T>[];
  /** Summed over this run's turns, with cost in USD when the model's price is known. */
  usage: Usage;
  /** `unknown` only when the model option named no known provider. */
  provider: ProviderId | "unknown";
  /** The model id, without the provider prefix. */
  model: string;
  /** The session's id (for `runAgent`, its `sessionId` option or a fresh random UUID). */
  sessionId: string;
  /** Why the run ended. */
  stopReason: StopReason;
  /** Why a hook stopped the run, or which budget ended it. */
  stopDetail?: string;
  /** How long the run took, in milliseconds. */
  durationMs: number;
  /** Model turns made. */
  turns: number;
  /**
   * With stopReason `approval`: the tool calls that wait for a person, in the model's order. Decide
   * them with `session.resume(decisions)`.
   */
  pendingApprovals?: TypedPendingApproval<T>[];
  /**
   * With stopReason `question` (or `approval`, when calls wait for both): the ask tool's calls that
   * wait for the person's answers, in the model's order. Answer them with
   * `session.resume([{ toolCallId, answers }])`.
   */
  pendingQuestions?: PendingQuestion[];
  /** With `output: schema`: the final answer, parsed and validated by the schema. */
  output?: O;
}

/** What `runAgent` resolves to: never a throw. A failure carries the partial result. */
export type AgentRunResult<T extends AnyTool = AnyTool, O = unknown> = Result<AgentResult<T, O>, AnySdkError>;

/**
 * The events of a run, in order: `run-start`; per turn, the turn's own events (`turn-start` …
 * `turn-end` or `error`, see {@link TurnEvent}), then `tool-start` / `tool-result` per tool call, or
 * `approval-requested` for a call that waits for a person (`question-requested` for the ask tool's); `hook-decision` and `hook-error` where hooks act; `message` whenever a message joins the
 * conversation (the prompt, each assistant message, each batch of tool results, steered prompts);
 * `run-end` last, always. With typed tools (`T`), `tool-start` and `tool-result` narrow on
 * `toolCall.name` to that tool's arguments.
 */
export type AgentEvent<T extends AnyTool = AnyTool, O = unknown> =
  | {
      /** The run began; always the first event. */
      type: "run-start";
      /** The session's id. */
      sessionId: string;
      /** The wire API the model speaks. */
      provider: ProviderId;
      /** The model id, without the provider prefix. */
      model: string;
    }
  | Exclude<
      TurnEvent,
      {
        /** The turn's own `turn-start` is left out: the run's (below) adds the turn number. */
        type: "turn-start";
      }
    >
  | {
      /** A model turn's request is about to be sent. */
      type: "turn-start";
      /** The turn's number in this run, 1-based. */
      turn: number;
      /** The wire API the model speaks. */
      provider: ProviderId;
      /** The model id, without the provider prefix. */
      model: string;
    }
  | {
      /** A tool call is about to run (after the `preToolUse` hooks allowed it). */
      type: "tool-start";
      /** The call, with the input it runs with. */
      toolCall: TypedToolCall<T>;
    }
  | {
      /** A tool call ended, whichever way. */
      type: "tool-result";
      /** The call, with the input it ran with. */
      toolCall: TypedToolCall<T>;
      /** The result the model gets. */
      result: ToolResultPart;
      /** How long the call took, hooks included, in milliseconds. */
      durationMs: number;
      /** Present when the call failed: the ToolError behind the error result. */
      error?: AnySdkError;
    }
  | {
      /** A tool call waits for a person's decision; the run will pause with stopReason `approval`. */
      type: "approval-requested";
      /** The call and why it waits. */
      approval: PendingApproval;
    }
  | {
      /** The model asked the person questions (the ask tool); the run will pause with stopReason `question`. */
      type: "question-requested";
      /** The call and its questions. */
      question: PendingQuestion;
    }
  | {
      /**
       * The permission policy decided a tool call (docs/permissions.md): `deny` — its deny list or plan
       * mode refused it, and the call gets a result saying so; `allow` — it would have waited for a
       * person, and `bypass`, the allow list or `acceptEdits` ran it without asking.
       */
      type: "permission-decision";
      /** The call decided. */
      toolCall: TypedToolCall<T>;
      /** What the policy decided, which part of it, and the pattern or class that matched. */
      verdict: PermissionVerdict;
    }
  | {
      /** A hook returned a decision (not nothing). */
      type: "hook-decision";
      /** The event the hook ran for. */
      event: HookEvent;
      /** The hook's name (see `HookEntry.name`). */
      hook: string;
      /** The decision as the hook returned it. */
      decision: JsonObject;
      /**
       * Who decided: `hook` (a hook function), `policy` (the permission policy), `person` (a person asked
       * through a hook, such as the bridge's main-thread answer), `timeout` or `default` (nobody: the
       * kind's default was applied, after its time limit or because the answer failed).
       */
      decidedBy: DecidedBy;
    }
  | {
      /** A hook threw, timed out or returned something that is not a decision. */
      type: "hook-error";
      /** The event the hook ran for. */
      event: HookEvent;
      /** The hook's name (see `HookEntry.name`). */
      hook: string;
      /** The HookError (`HOOK_FAILED`, `HOOK_TIMEOUT`, `HOOK_INVALID_DECISION`). */
      error: AnySdkError;
      /** What happens next: `open` goes on, `closed` denies the tool or ends the run. */
      policy: HookFailurePolicy;
    }
  | {
      /** A message joined the conversation. */
      type: "message";
      /** The message, as it now stands in `messages`. */
      message: Message;
    }
  /**
   * Structured output: the answer so far, while a turn writes it — objects and arrays with what has
   * arrived, the string being written cut where it is. Each is its own copy, sent when the text grew
   * by 5% (or 32 characters) since the last, and when it is whole. The final value, validated, is
   * `result.value.output`.
   */
  | {
      /** Identifies a partial structured answer. */
      type: "output-partial";
      /** The turn writing it, 1-based. */
      turn: number;
      /** The answer so far. */
      partial: JsonValue;
    }
  /**
   * Before a turn: its request cannot read the prompt cache the previous request wrote, and why (the
   * model, the system prompt or the tools changed, or an earlier message is not the one sent before).
   */
  | {
      /** Identifies a prompt cache miss. */
      type: "cache-miss";
      /** The turn whose request misses the cache, 1-based. */
      turn: number;
      /** What changed, in words. */
      reason: string;
    }
  /** Older messages were summarized (see {@link CompactionEvent}). */
  | CompactionEvent
  | {
      /** The run ended; always the last event. */
      type: "run-end";
      /** What `result` resolves to. */
      result: AgentRunResult<T, O>;
    };

/** A running agent: iterate it for events (once), await `.result`, or `.abort()` it. */
export interface AgentRun<T extends AnyTool = AnyTool, O = unknown> extends AsyncIterable<AgentEvent<T, O>> {
  /** Resolves when the run ends. Never rejects. */
  readonly result: Promise<AgentRunResult<T, O>>;
  /** Aborts the run (idempotent): the turn, the tools and the hooks in flight all get the signal. */
  abort(reason?: unknown): void;
}
