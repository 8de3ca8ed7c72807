/**
 * The turn loop: call the model, run the tools it asked for, repeat — until it stops asking, or a stop
 * condition holds (abort, error, budget, turn limit, a hook). Whatever ends the run, every tool call in
 * the conversation has a result, so the messages are always valid to continue from.
 *
 * @module
 */

import { requestMessages } from "../compaction/compaction-state.ts";
import { abortErrorFrom } from "../errors/classify.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import { textOf } from "../message/message-text.ts";
import { randomId } from "../message/random-id.ts";
import { streamTurn } from "../stream/stream-turn.ts";
import type {
  AssistantMessage,
  PromptCache,
  StopReason,
  ToolCallPart,
  ToolResultPart,
  TurnEvent,
} from "../types.ts";
import { addUsage } from "../usage/usage.ts";
import { checkBudget, maxTurnsReached } from "./budget.ts";
import { endFrom, type LoopEnd, pausedEnd } from "./loop-end.ts";
import { notRunResult } from "./not-run-result.ts";
import type { Answered } from "./resume-run.ts";
import { appendMessages, type LoopSetup, type LoopTally, type RunContext } from "./run-context.ts";
import { runHooks } from "./run-hooks.ts";
import { runToolCalls } from "./run-tool-calls.ts";
import { userMessage } from "./user-message.ts";

/** The tool calls of `message`, in the model's order. */
export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === "tool_call");
}

/** Appends a turn's tool results as one message (none: nothing). */
function pushResults(run: RunContext, results: ToolResultPart[]): void {
  if (results.length === 0) return;
  appendMessages(run, {
    id: randomId(),
    role: "tool_result",
    content: results,
    timestamp: Date.now(),
  });
}

/** Gives every tool call of `message` a "not run" result, so no call is left without one. */
function closeToolCalls(run: RunContext, message: AssistantMessage, why: string): void {
  pushResults(
    run,
    toolCallsOf(message).map((call) => notRunResult(call, why)),
  );
}

/** Appends the messages the caller steered in; true when there were any. */
function deliverSteering(run: RunContext): boolean {
  const steered = run.takeSteering?.() ?? [];
  appendMessages(run, ...steered);
  return steered.length > 0;
}

/**
 * Goes on after a paused turn's decisions were answered (resume-run.ts): a pause again, or the turn's
 * results into the conversation as one message and the loop on (unless the run ended meanwhile).
 */
export function resumeTurns(
  run: RunContext,
  setup: LoopSetup,
  tally: LoopTally,
  answered: Answered,
): Promise<LoopEnd> | LoopEnd {
  if (answered.kind === "paused") return pausedEnd(answered.paused);
  pushResults(run, answered.results);
  const ended = endFrom(answered.control, run.signal);
  if (ended !== undefined) return ended;
  deliverSteering(run);
  return runTurns(run, setup, tally);
}

/** One model turn, its events forwarded to the run. Resolves with the message and the turn's error. */
async function modelTurn(
  run: RunContext,
  setup: LoopSetup,
): Promise<{ message: AssistantMessage; error?: AnySdkError }> {
  let error: AnySdkError | undefined;
  const onEvent = (event: TurnEvent): void => {
    if (event.type === "turn-start") run.emit({ ...event, turn: run.turn });
    else {
      if (event.type === "error") error = event.error;
      run.emit(event);
      const partial = setup.output?.partial(run.turn, event);
      if (partial !== undefined) run.emit({ type: "output-partial", turn: run.turn, partial });
    }
  };
  // No copy: nothing appends to the conversation while a turn (and its retries) is in flight.
  const messages = requestMessages(run.messages, run.compaction);
  const request = { ...setup.request, cache: sessionCache(setup, run.sessionId), messages };
  const miss =
    request.cache === false ? undefined : run.prefix?.check(JSON.stringify(setup.turnOptions.model), request);
  if (miss !== undefined) run.emit({ type: "cache-miss", turn: run.turn, reason: miss });
  const turn = streamTurn(request, { ...setup.turnOptions, signal: run.signal, onEvent });
  const message = await turn.message;
  return error === undefined ? { message } : { message, error };
}

/**
 * The run's cache option: off stays off; otherwise, on OpenAI's own endpoint, the cache key is the
 * session's id unless one is set (a compatible server, reached through `baseURL`, may refuse a field
 * it does not know, so it gets only a key the caller set).
 */
function sessionCache(setup: LoopSetup, sessionId: string): PromptCache | false {
  const { cache = {} } = setup.request;
  const baseURL = setup.turnOptions.baseURL;
  const official = baseURL === undefined || /^https:\/\/api\.openai\.com(?:[/:?#]|$)/.test(baseURL);
  // A key the caller set wins: it is spread over the session's id.
  return cache === false || !official ? cache : { key: sessionId, ...cache };
}

/** Why the calls of a turn cut off at the output limit were not run. */
const CUT_OFF =
  "the answer was cut off at the output token limit (maxTokens) before its tool calls were complete";

/** Runs turns until the run ends; appends every message to `run.messages` and sums into `tally`. */
export async function runTurns(run: RunContext, setup: LoopSetup, tally: LoopTally): Promise<LoopEnd> {
  let stopBlocks = 0;
  // Structured answers the schema refused so far.
  let answers = 0;
  // This turn was compacted after a CONTEXT_LENGTH refusal (it is sent again only once).
  let compacted = false;
  for (;;) {
    if (run.signal.aborted) return { stopReason: "aborted", error: abortErrorFrom(run.signal) };
    await setup.compaction?.beforeTurn(run, setup, tally);
    run.turn++;
    const { message, error } = await modelTurn(run, setup);
    // Refused for its length before anything came: compact, and send the turn again (once).
    if (error?.code === "CONTEXT_LENGTH" && message.content.length === 0 && setup.compaction && !compacted) {
      compacted = true;
      if (await setup.compaction.afterContextLength(run, setup, tally)) {
        run.turn--;
        continue;
      }
    }
    compacted = false;
    appendMessages(run, message);
    tally.usage = addUsage(tally.usage, message.usage);
    if (error !== undefined) {
      closeToolCalls(
        run,
        message,
        error.code === "ABORTED" ? "the run was aborted" : "the model turn failed",
      );
      return { stopReason: message.stopReason, error };
    }
    const toolCalls = toolCallsOf(message);
    // A structured answer given through the hidden answer tool (APIs whose JSON mode excludes tools).
    const answer = setup.output?.answerCall(toolCalls);
    if (answer !== undefined && setup.output !== undefined) {
      const output = setup.output;
      const text = answer.rawArgs ?? JSON.stringify(answer.args);
      const verdict = await output.check(text);
      pushResults(
        run,
        toolCalls.map((call) => output.answerResult(call, answer, verdict)),
      );
      if (verdict.ok) {
        tally.output = verdict.value;
        // The answer ends the run as a final text answer would: the stop hooks may still block it.
        const ending = await stopHooks(run, message, "complete", stopBlocks < setup.maxStopBlocks);
        if (ending !== undefined) return ending;
        stopBlocks++;
        continue;
      }
      tally.output = undefined;
      if (answers >= output.retries || run.turn >= setup.maxTurns)
        return { stopReason: "error", error: output.invalid(verdict.problem, text, answers + 1) };
      const over = checkBudget(setup.budget, setup.sessionBudget, tally.usage);
      if (over !== undefined)
        return { stopReason: "budget", error: over, stopDetail: String(over.details?.limit) };
      answers++;
      continue;
    }
    // A turn cut off at the output limit ends the run, as its text would: its last call's arguments are
    // cut short, and sending the turn back would only have the model cut off again, turn after turn.
    // Its calls are answered as not run, so the conversation stays whole and can be continued.
    if (message.stopReason === "maxTokens" && toolCalls.length > 0) {
      closeToolCalls(run, message, CUT_OFF);
      const ending = await stopHooks(run, message, "maxTokens", stopBlocks < setup.maxStopBlocks);
      if (ending !== undefined) return ending;
      stopBlocks++;
      continue;
    }
    const wantsMore = toolCalls.length > 0 || message.stopReason === "pauseTurn";
    const over =
      checkBudget(setup.budget, setup.sessionBudget, tally.usage) ??
      (wantsMore && run.turn >= setup.maxTurns ? maxTurnsReached(setup.maxTurns, tally.usage) : undefined);
    if (over !== undefined) {
      closeToolCalls(run, message, over.message);
      const limit = String(over.details?.limit);
      return {
        stopReason: over.code === "MAX_TURNS" ? "maxTurns" : "budget",
        error: over,
        stopDetail: limit,
      };
    }
    if (toolCalls.length > 0) {
      if (run.signal.aborted) {
        closeToolCalls(run, message, "the run was aborted");
        return { stopReason: "aborted", error: abortErrorFrom(run.signal) };
      }
      const outcome = await runToolCalls(toolCalls, run);
      tally.toolCalls.push(...outcome.records);
      // Some calls wait for a person: the turn's results are held until they are decided (or answered).
      if (outcome.pending.length > 0 || outcome.questions.length > 0) {
        const { pending: approvals, questions, results } = outcome;
        return pausedEnd(questions.length > 0 ? { approvals, questions, results } : { approvals, results });
      }
      pushResults(run, outcome.results);
      const ended = endFrom(outcome.control, run.signal);
      if (ended !== undefined) return ended;
      deliverSteering(run);
      continue;
    }
    if (wantsMore) continue; // pauseTurn: the provider paused a long turn; sending it back resumes it
    if (deliverSteering(run)) continue;
    const { output } = setup;
    if (output !== undefined) {
      const text = textOf(message);
      const verdict = await output.check(text);
      if (!verdict.ok) {
        tally.output = undefined;
        if (answers >= output.retries || run.turn >= setup.maxTurns)
          return { stopReason: "error", error: output.invalid(verdict.problem, text, answers + 1) };
        answers++;
        appendMessages(run, userMessage([{ type: "text", text: output.retryPrompt(verdict.problem) }]));
        continue;
      }
      tally.output = verdict.value;
    }
    const ending = await stopHooks(run, message, message.stopReason, stopBlocks < setup.maxStopBlocks);
    if (ending !== undefined) return ending;
    stopBlocks++;
  }
}

/**
 * The `stop` hooks, when the run would end with `stopReason` (unless `ask` is false): the run's end,
 * or undefined when a hook blocked it (its reason then joins the conversation and the loop goes on).
 */
async function stopHooks(
  run: RunContext,
  message: AssistantMessage,
  stopReason: StopReason,
  ask: boolean,
): Promise<LoopEnd | undefined> {
  if (!ask) return { stopReason };
  const stop = await runHooks(
    "stop",
    { sessionId: run.sessionId, messages: run.messages, turn: run.turn, message, stopReason },
    run,
  );
  const ended = endFrom(stop, run.signal);
  if (ended !== undefined) return ended;
  if (stop.kind !== "block") return { stopReason };
  appendMessages(run, userMessage([{ type: "text", text: stop.reason }]));
  return undefined;
}
