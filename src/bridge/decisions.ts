/**
 * Decisions asked across the bridge: the worker's hooks and approvals, answered on the main thread.
 * Each request carries interaction hints — its kind, whether an answer is expected, whether the run
 * waits for it, and how long it waits — and each kind has a default for when no answer comes in
 * time or the handler fails: approvals and `tool-before` fail closed (deny), the others go on as if
 * nobody had a hook.
 *
 * @module
 */

import type { PendingApproval } from "../agent/approvals.ts";
import type {
  PostToolUseDecision,
  PreToolUseDecision,
  PromptDecision,
  StopHookDecision,
} from "../agent/hooks.ts";
import type {
  AssistantMessage,
  JsonObject,
  StopReason,
  ToolCallPart,
  ToolResultPart,
  UserMessage,
} from "../types.ts";

/** The kinds of decision a worker asks for. */
export type DecisionKind = "prompt-submit" | "tool-before" | "tool-after" | "stop" | "approval";

/** Every kind, in the order a run meets them. */
export const DECISION_KINDS: readonly DecisionKind[] = [
  "prompt-submit",
  "tool-before",
  "approval",
  "tool-after",
  "stop",
];

/** Milliseconds the worker waits for an answer, per kind: a person approving is slow, hooks are not. */
export const DEFAULT_DECISION_TIMEOUTS: Readonly<Record<DecisionKind, number>> = {
  "prompt-submit": 10_000,
  "tool-before": 10_000,
  approval: 300_000,
  "tool-after": 10_000,
  stop: 10_000,
};

/** The interaction hints every decision request carries. */
export interface DecisionHints {
  requestId: string;
  /** The worker's name for the kind, also when this side does not know it (`kind` is then `unknown`). */
  rawKind: string;
  /** Whether an answer changes anything (a notification expects none). */
  expectsDecision: boolean;
  /** Whether the run waits for the answer. */
  canBlock: boolean;
  /** How long the worker waits before it applies the kind's default. */
  timeoutMs: number;
  sessionId: string;
  /** Model turns completed so far in the run. */
  turn: number;
}

/** A question from the worker, by kind, with what the hook there would see (never the whole conversation). */
export type DecisionRequest =
  | (DecisionHints & { kind: "prompt-submit"; prompt: UserMessage })
  | (DecisionHints & { kind: "tool-before"; toolCall: ToolCallPart })
  | (DecisionHints & { kind: "approval"; approval: PendingApproval })
  | (DecisionHints & { kind: "tool-after"; toolCall: ToolCallPart; result: ToolResultPart })
  | (DecisionHints & { kind: "stop"; message: AssistantMessage; stopReason: StopReason })
  | (DecisionHints & { kind: "unknown"; payload: unknown });

/** A person's answer to an approval: approve (optionally with edited arguments) or deny with a reason. */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
  /** Edited arguments, checked by the tool's schema before the call runs. */
  args?: JsonObject;
}

/** What each kind may be answered with; `undefined` takes the kind's default. */
export interface DecisionAnswers {
  "prompt-submit": PromptDecision;
  "tool-before": PreToolUseDecision;
  approval: ApprovalAnswer;
  "tool-after": PostToolUseDecision;
  stop: StopHookDecision;
}

/** Any answer `onDecision` may give. */
export type DecisionAnswer = DecisionAnswers[DecisionKind];

/**
 * Answers the worker's questions on the main thread. Return nothing to take the kind's default (for
 * an approval: denied). A throw, a rejected promise, or an approval answer of the wrong shape is
 * isolated and reported: the worker applies the default, failing closed for approvals and
 * `tool-before`.
 */
export type DecisionHandler = (
  request: DecisionRequest,
) => DecisionAnswer | undefined | Promise<DecisionAnswer | undefined>;

/** Whether `kind` fails closed (no answer means deny). */
export function failsClosed(kind: string): boolean {
  return kind === "approval" || kind === "tool-before";
}

/**
 * Something one side noticed and did not act on: a decision for an unknown or expired request, a
 * handler that failed, a decision that timed out, a message that could not be posted, a peer speaking
 * another protocol version.
 */
export interface BridgeReport {
  code:
    | "DECISION_UNKNOWN"
    | "DECISION_EXPIRED"
    | "DECISION_HANDLER_FAILED"
    | "DECISION_TIMEOUT"
    | "POST_FAILED"
    | "PROTOCOL"
    | "WORKER_ERROR";
  message: string;
  requestId?: string;
}
