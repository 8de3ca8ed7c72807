/**
 * The text the model reads for a person's reply to its questions: the answers, one line each, or that
 * the person did not answer (an error result, never a made-up answer). Imports only types: it is loaded
 * with the resume that answers (question-replies.ts) and by the bridge.
 *
 * @module
 */

import type { ToolResultPart } from "../types.ts";
import type { PendingQuestion, Question, QuestionAnswer, QuestionReply } from "./questions.ts";

const quoted = (text: string): string => JSON.stringify(text);

/** One answer as the model reads it. */
function answerLine(question: Question, answer: QuestionAnswer): string {
  const picked = answer.selected ?? [];
  const text = answer.text?.trim() ?? "";
  const parts: string[] = [];
  if (picked.length > 0) parts.push(picked.join(", "));
  if (text !== "") parts.push(picked.length > 0 ? `and wrote ${quoted(text)}` : `wrote ${quoted(text)}`);
  return `- ${quoted(question.question)}: ${parts.join(" ")}`;
}

/** The text the model gets for `reply` to `questions` (an unanswered reply says so, and is an error result). */
export function replyOutput(
  questions: Question[],
  reply: QuestionReply,
): { output: string; isError: boolean } {
  if ("unanswered" in reply) {
    const why = reply.reason === undefined || reply.reason.trim() === "" ? "" : ` (${reply.reason})`;
    return {
      output: `The user did not answer your questions${why}. Do not assume an answer: go on without one, or ask again later.`,
      isError: true,
    };
  }
  const lines = questions.map((question, index) => answerLine(question, reply.answers[index] ?? {}));
  return { output: ["The user answered your questions:", ...lines].join("\n"), isError: false };
}

/** The tool result the call of `question` gets for `reply`. */
export function replyResult(question: PendingQuestion, reply: QuestionReply): ToolResultPart {
  const { output, isError } = replyOutput(question.questions, reply);
  return {
    type: "tool_result",
    toolCallId: question.toolCallId,
    toolName: question.toolName,
    output,
    isError,
  };
}
