/**
 * Runs the tool calls of one assistant message: `preToolUse` hooks, argument validation, the approval
 * check, `execute` under its timeout and the run's signal, then `postToolUse` or
 * `postToolUseFailure`. Every call gets a result, in the model's order, whatever happens — so the
 * conversation stays valid to continue — except a call that waits for approval, which is handed back
 * as pending (see approvals.ts) and answered when the run resumes.
 *
 * @module
 */

import { messageOf } from "../errors/message-of.ts";
import { type ErrorCode, ToolError } from "../errors/sdk-error.ts";
import { storableText } from "../message/storable-values.ts";
import type { JsonObject, ToolCallPart, ToolResultPart } from "../types.ts";
import type { ToolCallRecord } from "./agent-events.ts";
import { canonicalJson } from "./approval-digest.ts";
import { type ApprovalDecision, deniedOutput, type HeldApproval, type PendingApproval } from "./approvals.ts";
import { type AskUserInput, asksThePerson, isAskUserTool } from "./ask-user-tool.ts";
import { runWithDeadline } from "./deadline.ts";
import type { ParsedArgs, Tool, ToolContext } from "./define-tool.ts";
import type { RunControl } from "./loop-end.ts";
import { notRunResult } from "./not-run-result.ts";
import { type HeldQuestion, isHeldQuestion, type PendingQuestion } from "./questions.ts";
import type { RunContext } from "./run-context.ts";
import { type HookOutcome, runHooks } from "./run-hooks.ts";
import { type ToolAnswer, toolAnswer } from "./tool-answer.ts";

/** The results, in the model's order, whether the run goes on, and the calls that wait for approval. */
export interface ToolRunOutcome {
  results: ToolResultPart[];
  records: ToolCallRecord[];
  control: RunControl;
  /**
   * Calls that wait for a person (only when the run goes on: an ending run answers them as not run).
   * With sequential tools the first one holds back the calls after it, which have not started.
   */
  pending: HeldApproval[];
  /** Calls of the ask tool that wait for the person's answers (only when the run goes on), like `pending`. */
  questions: HeldQuestion[];
}

/** One call's end: its record, or — for a call that waits for approval or answers — what waits. */
type CallOutcome =
  | { record: ToolCallRecord; control: RunControl; pending?: undefined }
  | { pending: HeldApproval | HeldQuestion; control: RunControl; record?: undefined };

function resultOf(toolCall: ToolCallPart, output: string, isError: boolean, images?: ToolAnswer["images"]) {
  const result: ToolResultPart = {
    type: "tool_result",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    output: storableText(output),
    isError,
  };
  if (images !== undefined) result.images = images;
  return result;
}

/** The run-level meaning of a hook outcome that does not let the call go on. */
function controlOf(outcome: Exclude<HookOutcome, { kind: "go" }>): RunControl {
  // deny and block answer for one call; they do not end the run
  return outcome.kind === "deny" || outcome.kind === "block" ? { kind: "go" } : outcome;
}

function whyNotRun(control: RunControl): string {
  if (control.kind === "aborted") return "the run was aborted";
  if (control.kind === "failed") return `a hook failed (${control.error.message})`;
  return "a hook stopped the run";
}

function withContext(output: string, context: string[]): string {
  return context.length === 0 ? output : [output, ...context].join("\n\n");
}

class CallRun {
  readonly #started = Date.now();
  #toolCall: ToolCallPart;
  readonly run: RunContext;

  constructor(toolCall: ToolCallPart, run: RunContext) {
    this.#toolCall = toolCall;
    this.run = run;
  }

  #finish(result: ToolResultPart, control: RunControl, error?: ToolError): CallOutcome {
    const durationMs = Date.now() - this.#started;
    const toolCall = this.#toolCall;
    this.run.emit(
      error === undefined
        ? { type: "tool-result", toolCall, result, durationMs }
        : { type: "tool-result", toolCall, result, durationMs, error },
    );
    return { record: { toolCall, result, turn: this.run.turn, durationMs }, control };
  }

  async #fail(code: ErrorCode, message: string, context: string[], cause?: unknown): Promise<CallOutcome> {
    const toolCall = this.#toolCall;
    const error = new ToolError(message, {
      code,
      details: { tool: toolCall.name, toolCallId: toolCall.id },
      cause,
    });
    const result = resultOf(toolCall, message, true);
    const hooks = await runHooks(
      "postToolUseFailure",
      { ...this.#base(), toolCall, result, error: { code, message } },
      this.run,
    );
    if (hooks.kind !== "go") return this.#finish(result, controlOf(hooks), error);
    return this.#finish(
      resultOf(toolCall, withContext(message, [...context, ...hooks.context]), true),
      hooks,
      error,
    );
  }

  #base() {
    return { sessionId: this.run.sessionId, messages: this.run.messages, turn: this.run.turn };
  }

  async execute(): Promise<CallOutcome> {
    const call = this.#toolCall;
    if (call.rawArgs !== undefined) {
      return this.#fail(
        "TOOL_INPUT_INVALID",
        `The arguments of "${call.name}" were not valid JSON: ${call.rawArgs}`,
        [],
      );
    }
    const tool = this.run.tools.get(call.name);
    if (tool === undefined) return this.#notFound();
    const refused = this.#refusedByPolicy(tool);
    if (refused !== undefined) return refused;
    const pre = await this.#preToolUse();
    if (!("kind" in pre)) return pre;
    if (pre.input !== undefined) this.#toolCall = { ...call, args: pre.input };
    return this.#run(tool, pre.context, pre.ask);
  }

  /**
   * The call's end when the permission policy refuses it (its deny list, or plan mode for a tool with
   * side effects): a result the model reads, and a `permission-decision` event. Undefined: it goes on.
   */
  #refusedByPolicy(tool: Tool<unknown>): CallOutcome | undefined {
    const policy = this.run.policy;
    const verdict = policy?.refusal(tool);
    if (policy === undefined || verdict === undefined) return undefined;
    const call = this.#toolCall;
    this.run.emit({ type: "permission-decision", toolCall: call, verdict });
    return this.#finish(resultOf(call, policy.refusedOutput(call.name, verdict), true), { kind: "go" });
  }

  /** The `preToolUse` hooks on the call: the outcome when they answered it (deny, stop, …), else their go. */
  async #preToolUse(): Promise<CallOutcome | Extract<HookOutcome, { kind: "go" }>> {
    const call = this.#toolCall;
    const pre = await runHooks("preToolUse", { ...this.#base(), toolCall: call }, this.run);
    if (pre.kind === "deny") return this.#finish(resultOf(call, pre.reason, true), { kind: "go" });
    if (pre.kind !== "go") return this.#finish(notRunResult(call, whyNotRun(controlOf(pre))), controlOf(pre));
    return pre;
  }

  /**
   * Answers a call a person decided: a denied call gets an error result with the reason; an
   * approved one runs without asking again. Arguments the approver edited have not been through the
   * `preToolUse` hooks: they run on them first. A hook's deny still wins and its "ask" is answered (a
   * person approved these arguments); a hook that would change them leaves the call not run, since
   * the tool would get arguments nobody approved.
   */
  async decided(decision: ApprovalDecision, args: JsonObject): Promise<CallOutcome> {
    const call = this.#toolCall;
    if (!decision.approved)
      return this.#finish(resultOf(call, deniedOutput(decision.reason), true), { kind: "go" });
    this.#toolCall = { ...call, args };
    const tool = this.run.tools.get(call.name);
    if (tool === undefined) return this.#notFound();
    // The policy in force now: a tool denied (or plan mode set) since the pause does not run.
    const refused = this.#refusedByPolicy(tool);
    if (refused !== undefined) return refused;
    if (decision.args === undefined) return this.#run(tool, [], undefined, true);
    const pre = await this.#preToolUse();
    if (!("kind" in pre)) return pre;
    if (pre.input !== undefined && canonicalJson(pre.input) !== canonicalJson(args)) {
      const why = "a preToolUse hook changed the arguments the approver supplied; ask again";
      return this.#finish(notRunResult(this.#toolCall, why), { kind: "go" });
    }
    return this.#run(tool, pre.context, undefined, true);
  }

  #notFound(): Promise<CallOutcome> {
    const call = this.#toolCall;
    const names = [...this.run.tools.keys()].join(", ") || "(none)";
    return this.#fail("TOOL_NOT_FOUND", `Unknown tool "${call.name}". Available tools: ${names}`, []);
  }

  /**
   * Whether the call waits for a person: a standing "always deny" answers it at once (a result); a
   * hook's "ask" waits; a standing "always allow" lets it run; otherwise the tool's `needsApproval`.
   * A call that would wait runs when the permission policy approves it (bypass, allow list, acceptEdits).
   */
  async #approval(
    tool: Tool<unknown>,
    args: unknown,
    ask: { reason?: string } | undefined,
  ): Promise<ToolResultPart | PendingApproval | undefined> {
    const call = this.#toolCall;
    const permissions = this.run.permissions;
    const standing =
      permissions && Object.hasOwn(permissions, call.name) ? permissions[call.name] : undefined;
    if (standing === "deny") return resultOf(call, deniedOutput(undefined, true), true);
    // A standing "always allow" answers the tool's own needsApproval; a hook that asks still asks.
    if (standing === "allow" && ask === undefined) return undefined;
    const needs =
      ask !== undefined ||
      (typeof tool.needsApproval === "function"
        ? (await tool.needsApproval(args, this.#context())) === true
        : tool.needsApproval === true);
    if (!needs) return undefined;
    // The policy answers for the person: bypass, the allow list, or acceptEdits with the tool's class.
    const verdict = this.run.policy?.approval(tool);
    if (verdict !== undefined) {
      this.run.emit({ type: "permission-decision", toolCall: call, verdict });
      return undefined;
    }
    const pending: PendingApproval = {
      toolCallId: call.id,
      toolName: call.name,
      args: call.args,
      requestedAt: Date.now(),
    };
    if (ask?.reason !== undefined) pending.reason = ask.reason;
    return pending;
  }

  #context(): ToolContext {
    const call = this.#toolCall;
    const context: ToolContext = {
      signal: this.run.signal,
      toolCallId: call.id,
      sessionId: this.run.sessionId,
      turn: this.run.turn,
      messages: this.run.messages,
    };
    const telemetry = this.run.trace?.toolContext(call.id);
    if (telemetry !== undefined) context.telemetry = telemetry;
    return context;
  }

  async #run(
    tool: Tool<unknown>,
    context: string[],
    ask?: { reason?: string },
    approved = false,
  ): Promise<CallOutcome> {
    const call = this.#toolCall;
    let args: unknown = call.args;
    if (tool.parseArgs !== undefined) {
      let parsed: ParsedArgs<unknown>;
      try {
        parsed = await tool.parseArgs(call.args as JsonObject);
      } catch (error) {
        const message = messageOf(error);
        return this.#fail(
          "TOOL_INPUT_INVALID",
          `Validating the arguments of "${call.name}" failed: ${message}`,
          context,
          error,
        );
      }
      if (!parsed.ok) {
        return this.#fail(
          "TOOL_INPUT_INVALID",
          `Invalid arguments for "${call.name}": ${parsed.message}`,
          context,
        );
      }
      args = parsed.args;
    }
    if (!approved) {
      let approval: ToolResultPart | PendingApproval | undefined;
      try {
        // A hook's "ask" on the ask tool is answered by its questions: the person is asked once, not twice.
        approval = await this.#approval(tool, args, asksThePerson(tool) ? undefined : ask);
      } catch (error) {
        const message = `The needsApproval check of "${call.name}" failed: ${messageOf(error)}`;
        return this.#fail("TOOL_FAILED", message, context, error);
      }
      if (approval !== undefined && "type" in approval) return this.#finish(approval, { kind: "go" });
      if (approval !== undefined) {
        this.run.emit({ type: "approval-requested", approval });
        return { pending: approval, control: { kind: "go" } };
      }
    }
    // The ask tool is not run: its valid call waits for the person's answers (questions.ts).
    if (isAskUserTool(tool)) {
      const question: PendingQuestion = {
        toolCallId: call.id,
        toolName: call.name,
        questions: (args as AskUserInput).questions,
        requestedAt: Date.now(),
      };
      this.run.emit({ type: "question-requested", question });
      return { pending: question, control: { kind: "go" } };
    }
    this.run.emit({ type: "tool-start", toolCall: call });
    const timeoutMs = tool.timeoutMs ?? this.run.toolTimeoutMs;
    const outcome = await runWithDeadline(
      async (signal) => toolAnswer(await tool.execute(args, { ...this.#context(), signal })),
      this.run.signal,
      timeoutMs,
    );
    switch (outcome.kind) {
      case "aborted":
        return this.#finish(resultOf(call, "Tool call aborted: the run was aborted", true), outcome);
      case "timeout":
        return this.#fail("TOOL_TIMEOUT", `Tool "${call.name}" timed out after ${timeoutMs} ms`, context);
      case "threw": {
        const message = messageOf(outcome.error);
        return this.#fail("TOOL_FAILED", `Tool "${call.name}" failed: ${message}`, context, outcome.error);
      }
    }
    const { text, images } = outcome.value;
    const result = resultOf(call, text, false, images);
    const post = await runHooks("postToolUse", { ...this.#base(), toolCall: call, result }, this.run);
    if (post.kind !== "go") return this.#finish(result, controlOf(post));
    // A replaced output replaces the whole answer, images too (a hook that redacts must be able to).
    const output = withContext(post.output ?? text, [...context, ...post.context]);
    return this.#finish(resultOf(call, output, false, post.output === undefined ? images : undefined), post);
  }
}

/** When calls end differently, the strongest wins: an abort over a hook failure over a hook stop. */
const STRENGTH: Record<RunControl["kind"], number> = { go: 0, stop: 1, failed: 2, aborted: 3 };

/**
 * The outcomes of `calls` (in the model's order; with sequential tools, only those that started) as
 * one: results and records in order, and the calls that wait for approval — or, when the run ends,
 * those calls (and any they hold back) answered as not run.
 */
function combine(calls: ToolCallPart[], outcomes: CallOutcome[], run: RunContext): ToolRunOutcome {
  let control: RunControl = { kind: "go" };
  for (const outcome of outcomes) {
    if (STRENGTH[outcome.control.kind] > STRENGTH[control.kind]) control = outcome.control;
  }
  const records: ToolCallRecord[] = [];
  const pending: HeldApproval[] = [];
  const questions: HeldQuestion[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.record !== undefined) records.push(outcome.record);
    else if (control.kind === "go") {
      if (isHeldQuestion(outcome.pending)) questions.push(outcome.pending);
      else pending.push(outcome.pending);
    } else {
      // A call announced as waiting gets its ending too: the run ends, so it is answered as not run.
      for (const call of calls.slice(index, index + 1 + (outcome.pending.holds?.length ?? 0)))
        records.push(notRunRecord(call, control, run));
    }
  }
  return { results: records.map((record) => record.result), records, control, pending, questions };
}

/** The record of a call the ending run does not run; its `tool-result` event is emitted like any other. */
function notRunRecord(call: ToolCallPart, control: RunControl, run: RunContext): ToolCallRecord {
  const result = notRunResult(call, whyNotRun(control));
  run.emit({ type: "tool-result", toolCall: call, result, durationMs: 0 });
  return { toolCall: call, result, turn: run.turn, durationMs: 0 };
}

/** Runs each of `calls` with `start` (together, or one by one when `run.sequentialTools`). */
async function runEach(
  calls: ToolCallPart[],
  run: RunContext,
  start: (call: ToolCallPart) => Promise<CallOutcome>,
): Promise<ToolRunOutcome> {
  if (!run.sequentialTools) return combine(calls, await Promise.all(calls.map(start)), run);
  const outcomes: CallOutcome[] = [];
  for (const [index, call] of calls.entries()) {
    const previous = outcomes.at(-1);
    if (previous?.pending !== undefined) {
      // One by one means in order: the calls after one that waits start only once it is decided.
      previous.pending.holds = calls.slice(index).map((later) => later.id);
      break;
    }
    if (previous !== undefined && previous.control.kind !== "go") {
      outcomes.push({ record: notRunRecord(call, previous.control, run), control: previous.control });
      continue;
    }
    outcomes.push(await start(call));
  }
  return combine(calls, outcomes, run);
}

/** Runs `toolCalls` (together, or one by one when `run.sequentialTools`), results in the model's order. */
export function runToolCalls(toolCalls: ToolCallPart[], run: RunContext): Promise<ToolRunOutcome> {
  return runEach(toolCalls, run, (call) => new CallRun(call, run).execute());
}

/**
 * Answers calls a person decided (see {@link CallRun.decided}). `decided` pairs each call with its
 * decision and the arguments it runs with if approved.
 */
export function runDecidedCalls(
  decided: { call: ToolCallPart; decision: ApprovalDecision; args: JsonObject }[],
  run: RunContext,
): Promise<ToolRunOutcome> {
  const byId = new Map(decided.map((entry) => [entry.call.id, entry]));
  return runEach(
    decided.map((entry) => entry.call),
    run,
    (call) => {
      const entry = byId.get(call.id) as (typeof decided)[number];
      return new CallRun(call, run).decided(entry.decision, entry.args);
    },
  );
}
