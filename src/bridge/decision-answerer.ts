/**
 * The main thread's side of decisions: a worker's question turned into a {@link DecisionRequest} for
 * `onDecision`, its answer checked and posted back, and a handler that fails reported and answered
 * as failed (the worker then denies or goes on, by kind).
 *
 * @module
 */

import { checkAnswers } from "../agent/question-checks.ts";
import type { PendingQuestion } from "../agent/questions.ts";
import { showValue } from "../config/show-value.ts";
import { messageOf } from "../errors/message-of.ts";
import {
  type BridgeReport,
  DECISION_KINDS,
  type DecisionHandlers,
  type DecisionRequest,
  failsClosed,
} from "./decisions.ts";
import type { MainMessage, WorkerMessage } from "./protocol.ts";

/** Why `answer` is not an approval answer, or undefined (nothing is an answer too: it denies). */
function notApprovalAnswer(answer: unknown): string | undefined {
  if (answer === undefined) return undefined;
  const given = answer as { approved?: unknown; reason?: unknown; args?: unknown } | null;
  const ok =
    typeof given === "object" &&
    given !== null &&
    typeof given.approved === "boolean" &&
    (given.reason === undefined || typeof given.reason === "string") &&
    (given.args === undefined ||
      (typeof given.args === "object" && given.args !== null && !Array.isArray(given.args)));
  return ok
    ? undefined
    : `an approval is answered with { approved: true | false, reason?: string, args?: object }, got ${showValue(answer)}`;
}

/**
 * Why `answer` is not an answer to `question`, or undefined (nothing is an answer too: unanswered).
 * The worker checks it again; this says so here, where the handler's author sees it.
 */
function notQuestionAnswer(answer: unknown, question: PendingQuestion | undefined): string | undefined {
  if (answer === undefined) return undefined;
  const given = answer as { answers?: unknown; unanswered?: unknown; reason?: unknown } | null;
  const shape =
    "a question is answered with { answers: [{ selected?, text? }, …] } or { unanswered: true, reason? }";
  if (typeof given !== "object" || given === null) return `${shape}, got ${showValue(answer)}`;
  if (given.unanswered === true)
    return given.reason === undefined || typeof given.reason === "string"
      ? undefined
      : `${shape}: reason must be a string`;
  const wrong = checkAnswers(question?.questions ?? [], given.answers, "answers");
  return wrong === undefined ? undefined : `${shape}: ${wrong.path} ${wrong.problem}`;
}

/** The worker's question as `onDecision` sees it: its payload spread in, an unknown kind as `unknown`. */
function requestOf(question: Extract<WorkerMessage, { t: "decide" }>): DecisionRequest {
  const { requestId, kind, expectsDecision, canBlock, timeoutMs } = question;
  const payload = (
    typeof question.payload === "object" && question.payload !== null ? question.payload : {}
  ) as Record<string, unknown>;
  const hints = {
    requestId,
    rawKind: kind,
    expectsDecision,
    canBlock,
    timeoutMs,
    sessionId: "",
    turn: 0,
    ...payload,
  };
  const known = (DECISION_KINDS as readonly string[]).includes(kind);
  return (
    known ? { ...hints, kind } : { ...hints, kind: "unknown", payload: question.payload }
  ) as DecisionRequest;
}

/**
 * Asks `handler` the worker's question and posts its answer. Never rejects: a missing handler, one
 * that throws, a malformed approval and an answer that cannot be posted are reported and posted as
 * `failed`. `post` returns false when the port refused the message, and reports that itself unless
 * its second argument is false.
 */
export async function answerQuestion(
  question: Extract<WorkerMessage, { t: "decide" }>,
  handlers: DecisionHandlers | undefined,
  post: (message: MainMessage, report?: boolean) => boolean,
  report: (report: BridgeReport) => void,
): Promise<void> {
  const { requestId, kind } = question;
  const request = requestOf(question);
  try {
    const handler = handlers?.[request.kind] as ((request: DecisionRequest) => unknown) | undefined;
    if (handler === undefined) throw new Error(`no onDecision.${request.kind} handler on the main thread`);
    const answer = await handler(request);
    const wrong =
      kind === "approval"
        ? notApprovalAnswer(answer)
        : request.kind === "question"
          ? notQuestionAnswer(answer, request.question)
          : undefined;
    if (wrong !== undefined) throw new Error(wrong);
    if (!post({ t: "decision", requestId, answer }, false))
      throw new Error("its answer could not be posted (is it plain data?)");
  } catch (error) {
    const why = messageOf(error);
    const outcome = failsClosed(kind)
      ? "the call was denied"
      : kind === "question"
        ? "the question went unanswered"
        : "the run went on";
    report({
      code: "DECISION_HANDLER_FAILED",
      message: `onDecision failed on the ${kind} question (${outcome}): ${why}`,
      requestId,
    });
    post({ t: "decision", requestId, failed: why });
  }
}
