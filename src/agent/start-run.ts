/**
 * Starts one run: resolves the model, checks the options and the prompt, fires the session hooks when
 * asked, runs the prompt through the loop, and assembles the Result. Shared by `runAgent` (a session
 * of one run) and agent sessions (many runs over one conversation).
 *
 * @module
 */

import type { CompactionState } from "../compaction/compaction-state.ts";
import type { Compactor } from "../compaction/compactor.ts";
import { invalidOption } from "../config/option-checks.ts";
import { abortErrorFrom, classifyThrown } from "../errors/classify.ts";
import { type AnySdkError, isSdkError } from "../errors/sdk-error.ts";
import { textOf } from "../message/message-text.ts";
import type { RunOutput } from "../output/run-output.ts";
import { loadProvider, resolveModel } from "../providers/registry.ts";
import { streamTurn } from "../stream/stream-turn.ts";
import type {
  AssistantMessage,
  Message,
  ProviderId,
  StopReason,
  UserContentPart,
  UserMessage,
} from "../types.ts";
import { addUsage, emptyUsage } from "../usage/usage.ts";
import type { AgentEvent, AgentResult, AgentRunResult } from "./agent-events.ts";
import { resumeTurns, toolCallsOf } from "./agent-loop.ts";
import { type AgentConfig, DEFAULT_TOOL_TIMEOUT_MS } from "./agent-options.ts";
import { sealApproval } from "./approval-digest.ts";
import {
  type ApprovalDecision,
  type HeldApproval,
  type Paused,
  publicApproval,
  type ToolPermissions,
} from "./approvals.ts";
import { type SessionBudget, sessionBudgetSpent } from "./budget.ts";
import { checkConfig } from "./check-config.ts";
import { checkPrompt } from "./check-prompt.ts";
import { endFrom, type LoopEnd } from "./loop-end.ts";
import { loopSetup, toolsByName } from "./loop-setup.ts";
import { resolvePermissions } from "./permission-policy.ts";
import { permissionPolicyProblem } from "./permission-rules.ts";
import { PrefixWatch } from "./prefix-watch.ts";
import { sealQuestion } from "./question-digest.ts";
import { type HeldQuestion, publicQuestion, type QuestionReply, type StoredQuestion } from "./questions.ts";
import { answerDecisions } from "./resume-run.ts";
import type { LoopTally, RunContext } from "./run-context.ts";
import { runHooks } from "./run-hooks.ts";
import { contextParts, runPrompt } from "./run-prompt.ts";

/** The run-trace module, once a run asked for it (a second `import()` would go through the loader again). */
let runTrace: Promise<typeof import("./run-trace.ts")> | undefined;

/** What one run works on. */
export interface RunRequest {
  config: AgentConfig;
  sessionId: string;
  /** The conversation; the run appends to this very array. */
  messages: Message[];
  /** The user's message. */
  content: UserContentPart[];
  /** The id the user's message gets (default: a random UUID). */
  promptId?: string;
  /** Fire `sessionStart` before the prompt (the session's first run). */
  sessionStart: boolean;
  /** Fire `sessionEnd` after the run (a session of one run). */
  sessionEnd: boolean;
  /** Messages the caller wants delivered at the run's next safe point. */
  takeSteering?: () => UserMessage[];
  signal?: AbortSignal | undefined;
  /** A problem the caller found in the request before it started; the run ends with it. */
  problem?: AnySdkError | undefined;
  /** A check that needs code loaded on demand (the `messages` validator); a problem ends the run. */
  check?: (() => Promise<AnySdkError | undefined>) | undefined;
  /** Resume a paused turn with these decisions (and answers to its questions) instead of sending `content`. */
  resume?: { paused: Paused; decisions: ApprovalDecision[]; replies?: QuestionReply[] } | undefined;
  /** Standing answers per tool; a resume's `always` decisions are already in it. */
  permissions?: ToolPermissions;
  /** The session's view of its previous request (a run without one starts its own). */
  prefix?: PrefixWatch;
  /** The conversation's compaction so far, and who keeps a new one (a session). */
  compaction?: CompactionState | undefined;
  onCompaction?: (state: CompactionState) => void;
  /** Signs the approvals of a pause (HMAC), when set. */
  approvalSecret?: string | undefined;
  /** The session's budget and what the session spent before this run (a session with `sessionBudget`). */
  sessionBudget?: SessionBudget | undefined;
  /**
   * Told, before `run-end`, how the paused turn stands once the run got to it: the new pause, or
   * undefined when nothing waits any more. Not called when the run ended before reaching its turn
   * (a refused resume keeps its pause).
   */
  onPause?: (paused: Paused | undefined) => void;
}

/** The text of the last assistant message among `messages`, looking no further back than `from`. */
function lastAssistantText(messages: readonly Message[], from = 0): string {
  for (let index = messages.length - 1; index >= from; index--) {
    const message = messages[index] as Message;
    if (message.role !== "assistant") continue;
    return textOf(message as AssistantMessage);
  }
  return "";
}

interface Identity {
  provider: ProviderId | "unknown";
  model: string;
  started: number;
  /** Where this run's messages begin in the conversation. */
  firstIndex: number;
}

function agentResult(identity: Identity, run: RunContext, tally: LoopTally, end: LoopEnd): AgentRunResult {
  const value: AgentResult = {
    // This run's answer only: in a session an earlier run's answer is not this run's text.
    text: lastAssistantText(run.messages, identity.firstIndex),
    // A copy: a session's conversation keeps growing after this run.
    messages: run.messages.slice(),
    toolCalls: tally.toolCalls,
    usage: tally.usage,
    provider: identity.provider,
    model: identity.model,
    sessionId: run.sessionId,
    stopReason: end.stopReason,
    durationMs: Date.now() - identity.started,
    turns: run.turn,
  };
  if (tally.output !== undefined) value.output = tally.output;
  if (end.stopDetail !== undefined) value.stopDetail = end.stopDetail;
  if (end.paused !== undefined) value.pendingApprovals = end.paused.approvals.map(publicApproval);
  if (end.paused?.questions !== undefined) value.pendingQuestions = end.paused.questions.map(publicQuestion);
  return end.error === undefined ? { ok: true, value } : { ok: false, error: end.error, partial: value };
}

async function execute(
  request: RunRequest,
  run: RunContext,
  identity: Identity,
  tally: LoopTally,
  reached: { turn: boolean },
): Promise<LoopEnd> {
  const { config } = request;
  const problem = request.problem ?? (await request.check?.());
  if (problem !== undefined) return { stopReason: "error", error: problem };
  const resolved = resolveModel(config.model, config.provider);
  identity.provider = resolved.provider;
  identity.model = resolved.model;
  // A cost budget needs the model's price, which travels with the provider's code.
  const prices =
    config.budget?.maxCostUsd === undefined ? undefined : (await loadProvider(resolved.provider)).prices;
  const refused =
    checkConfig(config, resolved.provider, resolved.model, prices) ??
    (request.resume === undefined ? checkPrompt(request.content) : undefined);
  if (refused !== undefined) return { stopReason: "error", error: refused };
  // A session that spent its budget sends nothing more (a paused turn stays paused).
  const spent = sessionBudgetSpent(request.sessionBudget);
  if (spent !== undefined)
    return { stopReason: "budget", error: spent, stopDetail: String(spent.details?.limit) };
  // Compaction and structured output are prepared (loaded only by runs that ask for them) before the
  // run starts, so an option they cannot take ends it at once.
  let compactor: Compactor<RunContext> | undefined;
  if (config.compaction !== undefined) {
    const { createCompactor } = await import("../compaction/compactor.ts");
    compactor = createCompactor(config.compaction, resolved.model, resolved.provider, {
      preCompact: (compacted, input) => runHooks("preCompact", input, compacted),
      streamTurn,
      addUsage,
    });
  }
  let output: RunOutput | undefined;
  if (config.output !== undefined) {
    // Loaded only by runs that ask for structured output (a ConfigError for a schema it cannot send).
    const { runOutput } = await import("../output/run-output.ts");
    output = runOutput(config.output, config.outputRetries, {
      provider: resolved.provider,
      model: resolved.model,
      toolNames: (config.tools ?? []).map((tool) => tool.name),
    });
  }
  if (config.telemetry !== undefined) {
    // Loaded only by runs that trace: every event goes through the run's trace before it is emitted.
    // A chunk that failed to load is asked for again by the next run.
    runTrace ??= import("./run-trace.ts").catch((error: unknown) => {
      runTrace = undefined;
      throw error;
    });
    const wrong = (await runTrace).traceRun(run, config, request.resume?.decisions);
    if (wrong !== undefined) return { stopReason: "error", error: invalidOption(wrong.message, wrong.path) };
  }
  if (config.permissions !== undefined) {
    // Checked whole here (the option table checks its type). Not loaded on demand: its imports are the
    // entry's, and esbuild would move them into a chunk of their own that every program loads.
    const wrong = permissionPolicyProblem(config.permissions);
    if (wrong !== undefined) return { stopReason: "error", error: wrong };
    // The decisions are loaded only by runs with a policy (they import only types).
    const { policyDecider } = await import("./permission-decisions.ts");
    run.policy = policyDecider(resolvePermissions(config.permissions));
  }
  run.emit({
    type: "run-start",
    sessionId: run.sessionId,
    provider: resolved.provider,
    model: resolved.model,
  });
  let context: UserContentPart[] = [];
  if (request.sessionStart) {
    const start = await runHooks(
      "sessionStart",
      { sessionId: run.sessionId, messages: run.messages, turn: 0 },
      run,
    );
    const ended = endFrom(start, run.signal);
    if (ended !== undefined) return ended;
    if (start.kind === "go") context = contextParts(start.context);
  }
  const setup = loopSetup(config);
  if (request.sessionBudget !== undefined) setup.sessionBudget = request.sessionBudget;
  if (compactor !== undefined) setup.compaction = compactor;
  if (compactor?.native !== undefined) setup.request.nativeCompaction = compactor.native;
  if (output !== undefined) {
    setup.output = output;
    setup.request.output = output.format;
  }
  const { resume } = request;
  // A resume aborted before its decided calls run leaves the paused turn untouched.
  if (resume !== undefined && run.signal.aborted)
    return { stopReason: "aborted", error: abortErrorFrom(run.signal) };
  reached.turn = true;
  let end: LoopEnd;
  if (resume === undefined)
    end = await runPrompt(run, setup, tally, [...context, ...request.content], request.promptId);
  else {
    const calls = toolCallsOf(run.messages.at(-1) as AssistantMessage);
    const answered = await answerDecisions(
      run,
      tally,
      calls,
      resume.paused,
      resume.decisions,
      resume.replies,
    );
    end = await resumeTurns(run, setup, tally, answered);
  }
  if (end.paused !== undefined) {
    const seal = (approval: HeldApproval) => sealApproval(run.sessionId, approval, request.approvalSecret);
    const { questions } = end.paused;
    let sealed: StoredQuestion[] | undefined;
    if (questions !== undefined) {
      const sealOne = (question: HeldQuestion) =>
        sealQuestion(run.sessionId, question, request.approvalSecret);
      sealed = await Promise.all(questions.map(sealOne));
    }
    end.paused = {
      approvals: await Promise.all(end.paused.approvals.map(seal)),
      ...(sealed === undefined ? {} : { questions: sealed }),
      results: end.paused.results,
    };
  }
  return end;
}

/**
 * Runs `request` to its end: returns its Result and emits its events through `emit`. Never rejects.
 * Its options were checked by the entry point against their table (runAgent's options, a session's at
 * creation and its chat options per call), so the config is read as it is; a problem found there
 * comes as `request.problem`, and the run only ends with it.
 */
export function startRun(
  request: RunRequest,
  emit: (event: AgentEvent) => void,
  controller: AbortController,
): Promise<AgentRunResult> {
  const { config, signal: userSignal } = request;
  const forward = (): void => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) controller.abort(userSignal.reason);
  else userSignal?.addEventListener("abort", forward, { once: true });
  const identity: Identity = {
    provider: "unknown",
    // Every entry point checked it is a non-empty string (a refused runAgent passes "").
    model: config.model,
    started: Date.now(),
    firstIndex: request.messages.length,
  };
  const run: RunContext = {
    sessionId: request.sessionId,
    signal: controller.signal,
    emit,
    hooks: config.hooks,
    messages: request.messages,
    turn: 0,
    tools: toolsByName(config),
    toolTimeoutMs: config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    sequentialTools: config.toolExecution === "sequential",
  };
  run.prefix = request.prefix ?? new PrefixWatch();
  if (request.compaction !== undefined) run.compaction = request.compaction;
  if (request.onCompaction !== undefined) run.onCompaction = request.onCompaction;
  if (request.takeSteering !== undefined) run.takeSteering = request.takeSteering;
  if (request.permissions !== undefined) run.permissions = request.permissions;
  const reached = { turn: false };
  const tally: LoopTally = { usage: emptyUsage(), toolCalls: [] };
  const finish = async (end: LoopEnd): Promise<AgentRunResult> => {
    userSignal?.removeEventListener("abort", forward);
    if (reached.turn) request.onPause?.(end.paused as Paused | undefined);
    if (request.sessionEnd && identity.provider !== "unknown") await fireSessionEnd(run, end.stopReason);
    const result = agentResult(identity, run, tally, end);
    run.emit({ type: "run-end", result });
    return result;
  };
  return execute(request, run, identity, tally, reached).then(finish, (thrown: unknown) => {
    const error: AnySdkError = isSdkError(thrown)
      ? thrown
      : classifyThrown(thrown, { signal: controller.signal, provider: identity.provider });
    return finish({ stopReason: controller.signal.aborted ? "aborted" : "error", error });
  });
}

/** Fires `sessionEnd`: it runs even after an abort, under its own timeout only. */
export async function fireSessionEnd(
  run: Pick<RunContext, "sessionId" | "messages" | "turn" | "hooks" | "emit">,
  stopReason: StopReason,
): Promise<void> {
  await runHooks(
    "sessionEnd",
    { sessionId: run.sessionId, messages: run.messages, turn: run.turn, stopReason },
    { hooks: run.hooks, emit: run.emit, signal: new AbortController().signal },
  );
}
