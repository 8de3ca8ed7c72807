/**
 * Resuming a run that paused for approvals: the decided calls are answered (approved ones run, denied
 * ones get an error result), the turn's results go into the conversation as one message once every
 * call has one, and the loop goes on. Calls left undecided keep the run paused.
 *
 * @module
 */

import type { AssistantMessage, ToolCallPart, ToolResultPart } from "../types.ts";
import {
  deliverSteering,
  type LoopSetup,
  type LoopTally,
  pushResults,
  runTurns,
  toolCallsOf,
} from "./agent-loop.ts";
import type { ApprovalDecision, PausedTurn } from "./approvals.ts";
import { endFrom, type LoopEnd } from "./loop-end.ts";
import { notRunResult } from "./not-run-result.ts";
import type { RunContext } from "./run-context.ts";
import { runDecidedCalls } from "./run-tool-calls.ts";

/** `results` in the order of `calls` (the order the model made them). */
function inCallOrder(calls: ToolCallPart[], results: ToolResultPart[]): ToolResultPart[] {
  const position = new Map(calls.map((call, index) => [call.id, index]));
  return [...results].sort((a, b) => (position.get(a.toolCallId) ?? 0) - (position.get(b.toolCallId) ?? 0));
}

/**
 * Answers `decisions` (already checked by the session: each names a pending call once) and goes on.
 * The conversation's last message is the paused assistant message.
 */
export async function resumeRun(
  run: RunContext,
  setup: LoopSetup,
  tally: LoopTally,
  paused: PausedTurn,
  decisions: ApprovalDecision[],
): Promise<LoopEnd> {
  const calls = toolCallsOf(run.messages.at(-1) as AssistantMessage);
  const byId = new Map(decisions.map((decision) => [decision.toolCallId, decision]));
  const decided = paused.approvals.flatMap((approval) => {
    const decision = byId.get(approval.toolCallId);
    const call = calls.find((candidate) => candidate.id === approval.toolCallId);
    if (decision === undefined || call === undefined) return [];
    return [{ call, decision, args: decision.args ?? approval.args }];
  });
  const outcome = await runDecidedCalls(decided, run);
  tally.toolCalls.push(...outcome.records);
  const waiting = paused.approvals.filter((approval) => !byId.has(approval.toolCallId));
  const held = [...paused.results, ...outcome.results];
  if (outcome.control.kind === "go" && waiting.length > 0) {
    return { stopReason: "approval", paused: { approvals: waiting, results: held } };
  }
  const ended = endFrom(outcome.control, run.signal);
  const why = outcome.control.kind === "aborted" ? "the run was aborted" : "the run ended first";
  const rest = waiting.flatMap((approval) => {
    const call = calls.find((candidate) => candidate.id === approval.toolCallId);
    if (call === undefined) return [];
    const result = notRunResult(call, why);
    // Announced as waiting when the run paused: its ending is an event too, as for any call.
    run.emit({ type: "tool-result", toolCall: call, result, durationMs: 0 });
    return [result];
  });
  pushResults(run, inCallOrder(calls, [...held, ...rest]));
  if (ended !== undefined) return ended;
  deliverSteering(run);
  return runTurns(run, setup, tally);
}
