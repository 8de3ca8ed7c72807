/**
 * Decisions asked across the bridge: the worker's hooks and approvals, answered on the main thread.
 * Each request carries interaction hints — its kind, whether an answer is expected, whether the run
 * waits for it, and how long it waits — and each kind has a default for when no answer comes in
 * time or the handler fails: approvals and `tool-before` fail closed (deny), a question ends
 * unanswered, the others go on as if nobody had a hook.
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
import type { AnsweredReply, PendingQuestion, UnansweredReply } from "../agent/questions.ts";
import type {
  AssistantMessage,
  JsonObject,
  StopReason,
  ToolCallPart,
  ToolResultPart,
  UserMessage,
} from "../types.ts";

/** The kinds of decision a worker asks for. */
export type DecisionKind = "prompt-submit" | "tool-before" | "tool-after" | "stop" | "approval" | "question";

/** Every kind, in the order a run meets them. */
export const DECISION_KINDS: readonly DecisionKind[] = [
  "prompt-submit",
  "tool-before",
  "approval",
  "question",
  "tool-after",
  "stop",
];

/** Milliseconds the worker waits for an answer, per kind: a person approving is slow, hooks are not. */
export const DEFAULT_DECISION_TIMEOUTS: Readonly<Record<DecisionKind, number>> = {
  "prompt-submit": 10_000,
  "tool-before": 10_000,
  approval: 300_000,
  question: 300_000,
  "tool-after": 10_000,
  stop: 10_000,
};

/** The interaction hints every decision request carries. */
export interface DecisionHints {
  /** The request's id, unique within the connection; reports about it carry the same id. */
  requestId: string;
  /** The worker's name for the kind, also when this side does not know it (`kind` is then `unknown`). */
  rawKind: string;
  /** Whether an answer changes anything (a notification expects none). */
  expectsDecision: boolean;
  /** Whether the run waits for the answer. */
  canBlock: boolean;
  /** How long the worker waits before it applies the kind's default. */
  timeoutMs: number;
  /** The id of the session asking. */
  sessionId: string;
  /** Model turns completed so far in the run. */
  turn: number;
}

/** A question from the worker, by kind, with what the hook there would see (never the whole conversation). */
export type DecisionRequest =
  | (DecisionHints & {
      /** A prompt is about to join the conversation (the worker's `userPromptSubmit` hook). */
      kind: "prompt-submit";
      /** The prompt. */
      prompt: UserMessage;
    })
  | (DecisionHints & {
      /** A tool is about to run (the worker's `preToolUse` hook). */
      kind: "tool-before";
      /** The call, with the model's arguments. */
      toolCall: ToolCallPart;
    })
  | (DecisionHints & {
      /** A tool call needs a person's approval. */
      kind: "approval";
      /** The call and why it waits. */
      approval: PendingApproval;
    })
  | (DecisionHints & {
      /** The model asks the person questions (a call of the worker's ask tool, `askUserTool()`). */
      kind: "question";
      /** The call and its questions. */
      question: PendingQuestion;
    })
  | (DecisionHints & {
      /** A tool ran (the worker's `postToolUse` hook). */
      kind: "tool-after";
      /** The call as it ran. */
      toolCall: ToolCallPart;
      /** The result the model will get, unless the answer replaces its output. */
      result: ToolResultPart;
    })
  | (DecisionHints & {
      /** The run would end (the worker's `stop` hook). */
      kind: "stop";
      /** The assistant message the run would end on. */
      message: AssistantMessage;
      /** Why the run would end. */
      stopReason: StopReason;
    })
  | (DecisionHints & {
      /** A kind this side does not know (a newer worker); `rawKind` names it. */
      kind: "unknown";
      /** The request's data, as the worker sent it. */
      payload: unknown;
    });

/** A person's answer to an approval: approve (optionally with edited arguments) or deny with a reason. */
export interface ApprovalAnswer {
  /** True runs the call; false denies it. */
  approved: boolean;
  /** Why; with a denial, the model is told it. */
  reason?: string;
  /** Edited arguments, checked by the tool's schema before the call runs. */
  args?: JsonObject;
}

/**
 * The main side's answer to a question: one answer per question, or unanswered. No answer in time (or
 * `undefined`, a failed handler, answers that do not fit) ends the question as unanswered.
 */
export type QuestionDecision = Omit<AnsweredReply, "toolCallId"> | Omit<UnansweredReply, "toolCallId">;

/** What each kind may be answered with; `undefined` takes the kind's default. */
export interface DecisionAnswers {
  /** Add context to the prompt, or stop the run. */
  "prompt-submit": PromptDecision;
  /** Allow (with changed input), deny, ask a person, or stop the run. */
  "tool-before": PreToolUseDecision;
  /** Approve or deny the call. */
  approval: ApprovalAnswer;
  /** The person's answers (checked against the questions), or that they did not answer. */
  question: QuestionDecision;
  /** Replace the output, add context, or stop the run. */
  "tool-after": PostToolUseDecision;
  /** Let the run end, or block it. */
  stop: StopHookDecision;
}

/** Any answer `onDecision` may give. */
export type DecisionAnswer = DecisionAnswers[DecisionKind];

/** The question of one kind, as its handler gets it. */
export type DecisionRequestOf<K extends DecisionKind> = Extract<
  DecisionRequest,
  {
    /** The kind asked. */
    kind: K;
  }
>;

/**
 * Answers the worker's questions of kind `K` on the main thread. Return nothing to take the kind's
 * default (for an approval: denied). A throw, a rejected promise, or an approval answer of the wrong
 * shape is isolated and reported: the worker applies the default, failing closed for approvals and
 * `tool-before`.
 */
export type DecisionHandler<K extends DecisionKind = DecisionKind> = (
  request: DecisionRequestOf<K>,
) => DecisionAnswers[K] | undefined | Promise<DecisionAnswers[K] | undefined>;

/**
 * `onDecision`: a handler per decision kind, each answer checked against its kind at compile time (a
 * `{ approved: true }` for a `tool-before` question does not compile). The kinds given are the kinds
 * the worker asks.
 */
export type DecisionHandlers = { [K in DecisionKind]?: DecisionHandler<K> } & {
  /**
   * Questions of a kind this version does not know (a newer worker's), with their `rawKind` and
   * `payload`; what it returns (plain data) is posted back as is.
   */
  unknown?: (request: Extract<DecisionRequest, { kind: "unknown" }>) => unknown;
};

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
  /**
   * What happened: `DECISION_UNKNOWN` an answer for a request nobody asked, `DECISION_EXPIRED` an answer that
   * came after its request timed out, `DECISION_HANDLER_FAILED` the handler threw or answered in the wrong
   * shape, `DECISION_TIMEOUT` no answer in time, `POST_FAILED` a message could not be posted, `PROTOCOL` a
   * malformed message or another protocol version, `WORKER_ERROR` the worker reported an uncaught error,
   * `HOOK_LISTENER_FAILED` an `onHookEvent` listener threw or rejected (nothing else changed).
   */
  code:
    | "DECISION_UNKNOWN"
    | "DECISION_EXPIRED"
    | "DECISION_HANDLER_FAILED"
    | "DECISION_TIMEOUT"
    | "POST_FAILED"
    | "PROTOCOL"
    | "WORKER_ERROR"
    | "HOOK_LISTENER_FAILED";
  /** What happened, in words. */
  message: string;
  /** The decision request it is about, when it is about one. */
  requestId?: string;
}
