/**
 * Resuming a run that paused for approvals: the decided calls are answered (approved ones run, denied
 * ones get an error result), calls they held back start, the turn's results go into the conversation
 * as one message once every call has one, and the loop goes on. Calls left undecided keep the run
 * paused.
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
import { loadToolMachinery } from "./load-tool-machinery.ts";
import { endFrom, type LoopEnd } from "./loop-end.ts";
import { notRunResult } from "./not-run-result.ts";
import type { RunContext } from "./run-context.ts";

/** `results` in the order of `calls` (the order the model made them). */
function inCallOrder(calls: ToolCallPart[], results: ToolResultPart[]): ToolResultPart[] {
  const position = new Map(calls.map((call, index) => [call.id, index]));
  return [...results].sort((a, b) => (position.get(a.toolCallId) ?? 0) - (position.get(b.toolCallId) ?? 0));
}

/**
 * Answers `decisions` (already checked by the session: each names a pending call once) and goes on.
 * The conversation's last message is the paused assistant message. Calls a decided call held back
 * (sequential tools) start after it, in order, and may pause the run again.
 */
export async function resumeRun(
  run: RunContext,
  setup: LoopSetup,
  tally: LoopTally,
  paused: PausedTurn,
  decisions: ApprovalDecision[],
): Promise<LoopEnd> {
  const calls = toolCallsOf(run.messages.at(-1) as AssistantMessage);
  const callById = new Map(calls.map((call) => [call.id, call]));
  const byId = new Map(decisions.map((decision) => [decision.toolCallId, decision]));
  const answered = paused.approvals.filter((approval) => byId.has(approval.toolCallId));
  const decided = answered.flatMap((approval) => {
    const decision = byId.get(approval.toolCallId) as ApprovalDecision;
    const call = callById.get(approval.toolCallId);
    return call === undefined ? [] : [{ call, decision, args: decision.args ?? approval.args }];
  });
  const { runDecidedCalls, runToolCalls } = await loadToolMachinery();
  const first = await runDecidedCalls(decided, run);
  tally.toolCalls.push(...first.records);
  const released = answered
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
  const held = [...paused.results, ...first.results, ...(then?.results ?? [])];
  if (control.kind === "go" && waiting.length > 0) {
    return { stopReason: "approval", paused: { approvals: waiting, results: held } };
  }
  const ended = endFrom(control, run.signal);
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
  pushResults(run, inCallOrder(calls, [...held, ...rest]));
  if (ended !== undefined) return ended;
  deliverSteering(run);
  return runTurns(run, setup, tally);
}
