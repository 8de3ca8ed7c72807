/**
 * Resuming a run that paused for approvals: the decided calls are answered (approved ones run, denied
 * ones get an error result), calls they held back start, and once every call of the paused turn has
 * a result they go back, in the model's order, for the loop to go on (agent-loop.ts `resumeTurns`).
 * Calls left undecided keep the run paused.
 *
 * @module
 */

import type { ToolCallPart, ToolResultPart } from "../types.ts";
import type { ApprovalDecision, PausedTurn } from "./approvals.ts";
import type { RunControl } from "./loop-end.ts";
import { notRunResult } from "./not-run-result.ts";
import type { QuestionReply } from "./questions.ts";
import type { LoopTally, RunContext } from "./run-context.ts";
import { runDecidedCalls, runToolCalls } from "./run-tool-calls.ts";

/** What answering the decisions came to: the run pauses again, or the turn's results are complete. */
export type Answered =
  | { kind: "paused"; paused: PausedTurn }
  | { kind: "answered"; results: ToolResultPart[]; control: RunControl };

/** `results` in the order of `calls` (the order the model made them). */
function inCallOrder(calls: ToolCallPart[], results: ToolResultPart[]): ToolResultPart[] {
  const position = new Map(calls.map((call, index) => [call.id, index]));
  return [...results].sort((a, b) => (position.get(a.toolCallId) ?? 0) - (position.get(b.toolCallId) ?? 0));
}

/**
 * Answers `decisions` and `replies` (already checked by the session: each names a pending call once)
 * for `calls`, the tool calls of the paused assistant message. Calls a decided or answered call held
 * back (sequential tools) start after it, in order, and may pause the run again.
 */
export async function answerDecisions(
  run: RunContext,
  tally: LoopTally,
  calls: ToolCallPart[],
  paused: PausedTurn,
  decisions: ApprovalDecision[],
  replies: QuestionReply[] = [],
): Promise<Answered> {
  const callById = new Map(calls.map((call) => [call.id, call]));
  const byId = new Map(decisions.map((decision) => [decision.toolCallId, decision]));
  const repliedIds = new Set(replies.map((reply) => reply.toolCallId));
  const questions = paused.questions ?? [];
  const replied = questions.filter((question) => repliedIds.has(question.toolCallId));
  // Loaded only by a resume that answers questions (it imports only types and the reply text).
  const answers =
    replied.length === 0
      ? []
      : (await import("./question-replies.ts")).answerQuestions(run, calls, replied, replies);
  tally.toolCalls.push(...answers);
  const answered = paused.approvals.filter((approval) => byId.has(approval.toolCallId));
  const decided = answered.flatMap((approval) => {
    const decision = byId.get(approval.toolCallId) as ApprovalDecision;
    const call = callById.get(approval.toolCallId);
    return call === undefined ? [] : [{ call, decision, args: decision.args ?? approval.args }];
  });
  const first = await runDecidedCalls(decided, run);
  tally.toolCalls.push(...first.records);
  const released = [...answered, ...replied]
    .flatMap((approval) => approval.holds ?? [])
    .flatMap((id) => callById.get(id) ?? []);
  const then =
    first.control.kind === "go" && released.length > 0 ? await runToolCalls(released, run) : undefined;
  tally.toolCalls.push(...(then?.records ?? []));
  const control = then?.control ?? first.control;
  const waiting = [
    ...paused.approvals.filter((approval) => !byId.has(approval.toolCallId)),
    ...(then?.pending ?? []),
  ];
  const asking = [
    ...questions.filter((question) => !repliedIds.has(question.toolCallId)),
    ...(then?.questions ?? []),
  ];
  const held = [
    ...paused.results,
    ...answers.map((record) => record.result),
    ...first.results,
    ...(then?.results ?? []),
  ];
  if (control.kind === "go" && (waiting.length > 0 || asking.length > 0)) {
    const still = asking.length > 0 ? { approvals: waiting, questions: asking } : { approvals: waiting };
    return { kind: "paused", paused: { ...still, results: held } };
  }
  const why = control.kind === "aborted" ? "the run was aborted" : "the run ended first";
  const done = new Set(held.map((result) => result.toolCallId));
  const rest = calls.flatMap((call) => {
    if (done.has(call.id)) return [];
    const result = notRunResult(call, why);
    // Announced as waiting (or held behind a waiting call) when the run paused: its ending is an
    // event too, as for any call.
    run.emit({ type: "tool-result", toolCall: call, result, durationMs: 0 });
    return [result];
  });
  return { kind: "answered", results: inCallOrder(calls, [...held, ...rest]), control };
}
