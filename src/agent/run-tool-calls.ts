/**
 * Runs the tool calls of one assistant message: `preToolUse` hooks, argument validation, `execute`
 * under its timeout and the run's signal, then `postToolUse` or `postToolUseFailure`. Every call gets a
 * result, in the model's order, whatever happens — so the conversation stays valid to continue.
 *
 * @module
 */

import { messageOf } from "../errors/message-of.ts";
import { type ErrorCode, ToolError } from "../errors/sdk-error.ts";
import { storableText } from "../stream/storable-values.ts";
import type { JsonObject, ToolCallPart, ToolResultPart } from "../types.ts";
import type { ToolCallRecord } from "./agent-events.ts";
import { runWithDeadline } from "./deadline.ts";
import type { ParsedArgs, Tool } from "./define-tool.ts";
import type { RunControl } from "./loop-end.ts";
import type { RunContext } from "./run-context.ts";
import { type HookOutcome, runHooks } from "./run-hooks.ts";
import { toolOutputText } from "./tool-output.ts";

/** The results, in the model's order, and whether the run goes on. */
export interface ToolRunOutcome {
  results: ToolResultPart[];
  records: ToolCallRecord[];
  control: RunControl;
}

interface CallOutcome {
  record: ToolCallRecord;
  control: RunControl;
}

/** A result for a call that was not run (the run ended first). */
export function notRunResult(toolCall: ToolCallPart, why: string): ToolResultPart {
  return {
    type: "tool_result",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    output: `Tool call not run: ${why}`,
    isError: true,
  };
}

function resultOf(toolCall: ToolCallPart, output: string, isError: boolean): ToolResultPart {
  return {
    type: "tool_result",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    output: storableText(output),
    isError,
  };
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
    if (tool === undefined) {
      const names = [...this.run.tools.keys()].join(", ") || "(none)";
      return this.#fail("TOOL_NOT_FOUND", `Unknown tool "${call.name}". Available tools: ${names}`, []);
    }
    const pre = await runHooks("preToolUse", { ...this.#base(), toolCall: call }, this.run);
    if (pre.kind === "deny") return this.#finish(resultOf(call, pre.reason, true), { kind: "go" });
    if (pre.kind !== "go") return this.#finish(notRunResult(call, whyNotRun(controlOf(pre))), controlOf(pre));
    if (pre.input !== undefined) this.#toolCall = { ...call, args: pre.input };
    return this.#run(tool, pre.context);
  }

  async #run(tool: Tool<unknown>, context: string[]): Promise<CallOutcome> {
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
    this.run.emit({ type: "tool-start", toolCall: call });
    const timeoutMs = tool.timeoutMs ?? this.run.toolTimeoutMs;
    const outcome = await runWithDeadline(
      async (signal) =>
        toolOutputText(
          await tool.execute(args, {
            signal,
            toolCallId: call.id,
            sessionId: this.run.sessionId,
            turn: this.run.turn,
            messages: this.run.messages,
          }),
        ),
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
    const result = resultOf(call, outcome.value, false);
    const post = await runHooks("postToolUse", { ...this.#base(), toolCall: call, result }, this.run);
    if (post.kind !== "go") return this.#finish(result, controlOf(post));
    const output = withContext(post.output ?? outcome.value, [...context, ...post.context]);
    return this.#finish(resultOf(call, output, false), post);
  }
}

/** When calls end differently, the strongest wins: an abort over a hook failure over a hook stop. */
const STRENGTH: Record<RunControl["kind"], number> = { go: 0, stop: 1, failed: 2, aborted: 3 };

function combine(outcomes: CallOutcome[]): ToolRunOutcome {
  let control: RunControl = { kind: "go" };
  for (const outcome of outcomes) {
    if (STRENGTH[outcome.control.kind] > STRENGTH[control.kind]) control = outcome.control;
  }
  const records = outcomes.map((outcome) => outcome.record);
  return { results: records.map((record) => record.result), records, control };
}

/** Runs `toolCalls` (together, or one by one when `run.sequentialTools`), results in the model's order. */
export async function runToolCalls(toolCalls: ToolCallPart[], run: RunContext): Promise<ToolRunOutcome> {
  if (!run.sequentialTools) {
    return combine(await Promise.all(toolCalls.map((call) => new CallRun(call, run).execute())));
  }
  const outcomes: CallOutcome[] = [];
  for (const call of toolCalls) {
    const previous = outcomes.at(-1)?.control;
    if (previous !== undefined && previous.kind !== "go") {
      const result = notRunResult(call, whyNotRun(previous));
      outcomes.push({ record: { toolCall: call, result, turn: run.turn, durationMs: 0 }, control: previous });
      continue;
    }
    outcomes.push(await new CallRun(call, run).execute());
  }
  return combine(outcomes);
}
