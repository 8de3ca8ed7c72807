/**
 * Checks the answers given to `session.resume` for the ask tool's pending calls, before anything
 * runs: an entry `{ toolCallId, answers }` or `{ toolCallId, unanswered: true, reason? }` must name a
 * pending question once, and its answers must fit the questions (one per question, options that
 * exist, one pick unless `multiSelect`). A decision `{ toolCallId, approved }` must not name a
 * question, nor an answer an approval. Every problem is a ConfigError `APPROVAL_INVALID` whose `path`
 * names the entry, and nothing runs.
 *
 * @module
 */

import type { Paused } from "../agent/approvals.ts";
import { checkAnswers, MAX_QUESTION_TEXT } from "../agent/question-checks.ts";
import { isReplyEntry, type QuestionAnswer, type QuestionReply } from "../agent/questions.ts";
import { isPlainObject, notStringOption, oneOfOption } from "../config/option-checks.ts";
import { checkOptions, type OptionTable } from "../config/option-table.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonObject, Message } from "../types.ts";
import { answered } from "./check-decisions.ts";

function refused(message: string, path: string, details: JsonObject = {}): ConfigError {
  return new ConfigError(message, {
    code: "APPROVAL_INVALID",
    path,
    details: { ...details, kind: "question" },
  });
}

/** The fields of a reply, in the order they are checked (the answers themselves are checked against their questions). */
const REPLY_FIELDS: OptionTable<{ toolCallId: string; answers: unknown; unanswered: true; reason: string }> =
  {
    toolCallId: { required: true, check: notStringOption },
    answers: null,
    unanswered: oneOfOption([true]),
    reason: notStringOption,
  };

/** One reply checked against the paused turn: the reply to run, or the ConfigError that refuses the resume. */
function checkReply(
  value: Record<string, unknown>,
  path: string,
  paused: Paused | undefined,
  messages: readonly Message[],
): QuestionReply | ConfigError {
  const problem = checkOptions(REPLY_FIELDS, value, { what: "answer field", path });
  if (problem !== undefined) return refused(problem.message, problem.path ?? path);
  const toolCallId = value.toolCallId as string;
  if (value.answers !== undefined && value.unanswered !== undefined)
    return refused(`${path} gives answers and says it is unanswered`, `${path}.unanswered`, { toolCallId });
  if (value.reason !== undefined && value.unanswered === undefined)
    return refused(`${path}.reason goes with unanswered: true`, `${path}.reason`, { toolCallId });
  // The reason becomes part of the conversation: bounded as an answer's own text is.
  if (typeof value.reason === "string" && value.reason.length > MAX_QUESTION_TEXT)
    return refused(`${path}.reason must be at most ${MAX_QUESTION_TEXT} characters`, `${path}.reason`, {
      toolCallId,
    });
  const question = paused?.questions?.find((candidate) => candidate.toolCallId === toolCallId);
  if (question === undefined) {
    if (paused?.approvals.some((approval) => approval.toolCallId === toolCallId))
      return refused(
        `Tool call ${toolCallId} waits for approval, not answers: decide it with { toolCallId, approved }`,
        `${path}.toolCallId`,
        { toolCallId },
      );
    const used = answered(messages, paused, toolCallId);
    const why = used
      ? `Tool call ${toolCallId} was already answered (an answer is used once)`
      : `Tool call ${toolCallId} is not a question waiting for answers`;
    return refused(why, `${path}.toolCallId`, { toolCallId, replayed: used });
  }
  if (value.unanswered === true)
    return typeof value.reason === "string"
      ? { toolCallId, unanswered: true, reason: value.reason }
      : { toolCallId, unanswered: true };
  const wrong = checkAnswers(question.questions, value.answers, `${path}.answers`);
  if (wrong !== undefined) return refused(`${wrong.path} ${wrong.problem}`, wrong.path, { toolCallId });
  const answers = (value.answers as QuestionAnswer[]).map(({ selected, text }) => {
    const answer: QuestionAnswer = {};
    if (selected !== undefined) answer.selected = [...selected];
    if (text !== undefined) answer.text = text;
    return answer;
  });
  return { toolCallId, answers };
}

/**
 * The replies among the entries `input` gives `resume` (an array; anything else is checkDecisions'
 * to refuse), checked against the paused turn; or the ConfigError that refuses the whole resume.
 */
export function checkReplies(
  input: unknown,
  paused: Paused | undefined,
  messages: readonly Message[],
): QuestionReply[] | ConfigError {
  if (!Array.isArray(input)) return [];
  const replies: QuestionReply[] = [];
  for (const [index, value] of input.entries()) {
    const path = `decisions.${index}`;
    if (!isReplyEntry(value)) {
      const id = isPlainObject(value) ? value.toolCallId : undefined;
      if (typeof id === "string" && paused?.questions?.some((question) => question.toolCallId === id))
        return refused(
          `Tool call ${id} asks the user questions: answer it with { toolCallId, answers } or { toolCallId, unanswered: true }`,
          path,
          { toolCallId: id },
        );
      continue;
    }
    const reply = checkReply(value as Record<string, unknown>, path, paused, messages);
    if (reply instanceof ConfigError) return reply;
    if (replies.some((earlier) => earlier.toolCallId === reply.toolCallId))
      return refused(`Tool call ${reply.toolCallId} is answered twice`, `${path}.toolCallId`, {
        toolCallId: reply.toolCallId,
      });
    replies.push(reply);
  }
  return replies;
}
