/**
 * Questions across the bridge: when the main thread answers the `question` kind, a call of the ask
 * tool does not pause the worker's run; a `preToolUse` hook asks the main side while the run waits,
 * and the answers become the call's result, as `session.resume` would give them. No answer in time,
 * a failed handler or an answer that does not fit the questions ends the question as unanswered —
 * never as a made-up answer.
 *
 * @module
 */

import { type AskUserInput, answeredAskTool, isAskUserTool } from "../agent/ask-user-tool.ts";
import { type DecidedBy, markDecidedBy } from "../agent/decided-by.ts";
import type { HookEntry, PreToolUseDecision } from "../agent/hooks.ts";
import { checkAnswers } from "../agent/question-checks.ts";
import { replyOutput } from "../agent/question-reply-text.ts";
import type { PendingQuestion, QuestionReply } from "../agent/questions.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { Asked, DecisionAsker } from "./decision-asker.ts";

/** The reply a main-thread answer stands for: its answers when they fit, else unanswered and why. */
function replyOf(asked: Asked, question: PendingQuestion): { reply: QuestionReply; by: DecidedBy } {
  const { toolCallId } = question;
  const unanswered = (reason: string, by: DecidedBy) => ({
    reply: { toolCallId, unanswered: true, reason } as const,
    by,
  });
  if (!asked.answered)
    return unanswered(`no answer from the main thread: ${asked.why}`, asked.timedOut ? "timeout" : "default");
  const answer = asked.answer as { answers?: unknown; unanswered?: unknown; reason?: unknown } | undefined;
  if (answer === undefined || answer === null) return unanswered("the main thread gave no answer", "default");
  if (answer.unanswered === true)
    return typeof answer.reason === "string"
      ? unanswered(answer.reason, "person")
      : { reply: { toolCallId, unanswered: true }, by: "person" };
  const wrong = checkAnswers(question.questions, answer.answers, "answers");
  if (wrong !== undefined)
    return unanswered(`the main thread's answer did not fit (${wrong.path} ${wrong.problem})`, "default");
  return { reply: { toolCallId, answers: answer.answers as never }, by: "person" };
}

/**
 * `tools` with each ask tool made to give the main side's answers instead of pausing, and the
 * `preToolUse` hook that asks for them (waiting `marginMs` longer than the bridge, so the bridge's
 * own timeout always comes first); undefined when `tools` has no ask tool.
 */
export function bridgedQuestions(
  tools: readonly AnyTool[],
  asker: DecisionAsker,
  marginMs: number,
): { tools: AnyTool[]; hook: HookEntry<"preToolUse"> } | undefined {
  const asks = new Map(tools.filter(isAskUserTool).map((tool) => [tool.name, tool]));
  if (asks.size === 0) return undefined;
  // The answers the hook got, by call, for the tool to return (the hook runs just before it).
  const outputs = new Map<string, string>();
  // Answered copies: a hook's "ask" on them asks nothing more (the answers are the approval), as
  // in-process, so the call runs right after the hook that set its output.
  const answering = tools.map((tool): AnyTool => {
    if (!asks.has(tool.name)) return tool;
    return answeredAskTool(tool, (_args, context) => {
      const output = outputs.get(context.toolCallId) ?? "The user's answers were not received.";
      outputs.delete(context.toolCallId);
      return output;
    });
  });
  const hook: HookEntry<"preToolUse"> = {
    name: "bridge-question",
    onFailure: "closed",
    timeoutMs: asker.timeoutOf("question") + marginMs,
    handler: async (input): Promise<PreToolUseDecision | undefined> => {
      const tool = asks.get(input.toolCall.name);
      const parsed = await tool?.parseArgs?.(input.toolCall.args);
      // Not an ask, or malformed questions: the run answers the call as it would in-process.
      if (parsed === undefined || !parsed.ok) return undefined;
      const question: PendingQuestion = {
        toolCallId: input.toolCall.id,
        toolName: input.toolCall.name,
        questions: (parsed.args as AskUserInput).questions,
        requestedAt: Date.now(),
      };
      const shown = { sessionId: input.sessionId, turn: input.turn, question };
      const asked = await asker.ask("question", shown, input.signal);
      const { reply, by } = replyOf(asked, question);
      const { output, isError } = replyOutput(question.questions, reply);
      // Unanswered reads as it does after a pause: an error result with the same words.
      if (isError) return markDecidedBy({ decision: "deny", reason: output }, by);
      outputs.set(question.toolCallId, output);
      return markDecidedBy({ decision: "allow" }, by);
    },
  };
  return { tools: answering, hook };
}
