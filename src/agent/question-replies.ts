/**
 * Answering a paused turn's questions on resume: each replied call of the ask tool gets its result —
 * the answers, or that the person did not answer — announced as a `tool-result` like any call's.
 * Loaded only by a resume that answers questions; imports only types and question-reply-text.ts.
 *
 * @module
 */

import type { ToolCallPart } from "../types.ts";
import type { ToolCallRecord } from "./agent-events.ts";
import { replyResult } from "./question-reply-text.ts";
import type { HeldQuestion, QuestionReply } from "./questions.ts";
import type { RunContext } from "./run-context.ts";

/**
 * The records of the questions among `questions` that `replies` answer (already checked by the
 * session), in the model's order; emits each one's `tool-result`. Calls missing from `calls` are skipped.
 */
export function answerQuestions(
  run: RunContext,
  calls: readonly ToolCallPart[],
  questions: readonly HeldQuestion[],
  replies: readonly QuestionReply[],
): ToolCallRecord[] {
  const byId = new Map(replies.map((reply) => [reply.toolCallId, reply]));
  return questions.flatMap((question) => {
    const reply = byId.get(question.toolCallId);
    const toolCall = calls.find((call) => call.id === question.toolCallId);
    if (reply === undefined || toolCall === undefined) return [];
    const result = replyResult(question, reply);
    run.emit({ type: "tool-result", toolCall, result, durationMs: 0 });
    return [{ toolCall, result, turn: run.turn, durationMs: 0 }];
  });
}
