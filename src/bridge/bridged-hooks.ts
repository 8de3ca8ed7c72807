/**
 * The worker session's options with the main thread's decisions wired in: for each kind the main
 * side answers, a hook after the session's own asks it (`prompt-submit` → `userPromptSubmit`,
 * `tool-before` → `preToolUse`, `tool-after` → `postToolUse`, `stop` → `stop`). For `approval`, a
 * tool's `needsApproval` is asked of the main side while the run waits, instead of pausing the run;
 * for `question`, so are the ask tool's questions (bridged-questions.ts).
 * No answer in time (or a failed handler) denies where a wrong "yes" could do harm — approvals and
 * `tool-before` — and goes on elsewhere.
 *
 * @module
 */

import { canonicalJson } from "../agent/approval-digest.ts";
import { deniedOutput } from "../agent/approvals.ts";
import { type DecidedBy, markDecidedBy } from "../agent/decided-by.ts";
import type { ToolContext } from "../agent/define-tool.ts";
import type {
  HookDecisions,
  HookEntry,
  HookEvent,
  HookInputBase,
  HookInputs,
  HookList,
  Hooks,
  PreToolUseDecision,
} from "../agent/hooks.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import { messageOf } from "../errors/message-of.ts";
import type { SessionOptions } from "../session/session-options.ts";
import type { ToolCallPart } from "../types.ts";
import { bridgedQuestions } from "./bridged-questions.ts";
import type { Asked, DecisionAsker } from "./decision-asker.ts";
import type { ApprovalAnswer } from "./decisions.ts";

/** Room between the bridge's own timeout and the hook's, so the bridge's answer always comes first. */
const MARGIN_MS = 5_000;

/** `hooks` with `entry` run after the event's own hooks. */
function withHook<E extends HookEvent>(hooks: Hooks | undefined, event: E, entry: HookEntry<E>): Hooks {
  const own = hooks?.[event] as HookList<E> | undefined;
  const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
  return { ...hooks, [event]: [...list, entry] };
}

/** What the hook sees, for the main side: never the whole conversation or the signal. */
function context(input: HookInputBase): { sessionId: string; turn: number } {
  return { sessionId: input.sessionId, turn: input.turn };
}

/** Who decided when the main side did not answer: the time limit, or the kind's default. */
function nobody(asked: Extract<Asked, { answered: false }>): DecidedBy {
  return asked.timedOut === true ? "timeout" : "default";
}

/**
 * A hook that asks the main side a question of `kind` about what `shown` picks from its input, and
 * returns the answer as its decision. Without an answer it returns `unanswered(why)` when given (and
 * fails closed), else nothing: the run goes on as if there were no hook.
 */
function askingHook<E extends HookEvent>(
  asker: DecisionAsker,
  kind: string,
  shown: (input: HookInputs[E]) => object,
  unanswered?: (why: string) => HookDecisions[E],
): HookEntry<E> {
  const entry: HookEntry<E> = {
    name: "bridge",
    timeoutMs: asker.timeoutOf(kind) + MARGIN_MS,
    handler: async (input) => {
      const asked = await asker.ask(kind, { ...context(input), ...shown(input) }, input.signal);
      if (asked.answered) return markDecidedBy(asked.answer as HookDecisions[E] | undefined, "person");
      return markDecidedBy(unanswered?.(asked.why), nobody(asked));
    },
  };
  if (unanswered !== undefined) entry.onFailure = "closed";
  return entry;
}

/** The `preToolUse` hook that asks the main side whether a tool that needs approval may run. */
function approvalHook(
  tools: ReadonlyMap<string, AnyTool>,
  own: HookList<"preToolUse"> | undefined,
  asker: DecisionAsker,
): HookEntry<"preToolUse"> {
  return {
    name: "bridge-approval",
    onFailure: "closed",
    timeoutMs: asker.timeoutOf("approval") + MARGIN_MS,
    handler: async (input): Promise<PreToolUseDecision | undefined> => {
      const tool = tools.get(input.toolCall.name);
      if (tool?.needsApproval === undefined) return undefined;
      if (!(await needsApproval(tool, input.toolCall, { ...input, toolCallId: input.toolCall.id })))
        return undefined;
      const { toolCall } = input;
      const approval = {
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        args: toolCall.args,
        requestedAt: Date.now(),
      };
      const asked = await asker.ask("approval", { ...context(input), approval }, input.signal);
      if (!asked.answered)
        return markDecidedBy(
          { decision: "deny", reason: `No approval from the main thread (${asked.why})` },
          nobody(asked),
        );
      const answer = asked.answer as ApprovalAnswer | undefined;
      // The person's "yes" is a decision too (an explicit allow), so the run's events say who allowed it.
      const person = (decision: PreToolUseDecision) => markDecidedBy(decision, "person");
      if (answer?.approved !== true)
        return person({ decision: "deny", reason: deniedOutput(answer?.reason) });
      if (answer.args === undefined) return person({ decision: "allow" });
      const edited = { ...input, toolCall: { ...toolCall, args: answer.args } };
      return (await ownHooksRefuse(own, edited)) ?? person({ input: answer.args });
    },
  };
}

/**
 * The session's own `preToolUse` hooks on arguments an approver edited (they saw only the model's),
 * as a resume in-process runs them: a deny or stop wins; an "ask" counts as answered; a hook that
 * would change the approved arguments, or fails, leaves the call not run.
 */
async function ownHooksRefuse(
  own: HookList<"preToolUse"> | undefined,
  input: HookInputs["preToolUse"],
): Promise<PreToolUseDecision | undefined> {
  const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
  const approved = canonicalJson(input.toolCall.args);
  for (const hook of list) {
    const handler = typeof hook === "function" ? hook : hook.handler;
    let decision: PreToolUseDecision | undefined;
    try {
      decision = (await handler(input)) ?? undefined;
    } catch (error) {
      return {
        decision: "deny",
        reason: `A preToolUse hook failed on the edited arguments: ${messageOf(error)}`,
      };
    }
    if (decision?.decision === "deny" || decision?.decision === "stop") return decision;
    if (decision !== undefined && "input" in decision && decision.input !== undefined) {
      if (canonicalJson(decision.input) !== approved)
        return {
          decision: "deny",
          reason: "A preToolUse hook changed the arguments the approver supplied; ask again",
        };
    }
  }
  return undefined;
}

/** The tool's own `needsApproval` on the call's validated arguments (invalid ones are the run's to report). */
async function needsApproval(tool: AnyTool, call: ToolCallPart, context: ToolContext): Promise<boolean> {
  let args: unknown = call.args;
  if (tool.parseArgs !== undefined) {
    const parsed = await tool.parseArgs(call.args);
    if (!parsed.ok) return false;
    args = parsed.args;
  }
  const needs = tool.needsApproval as
    | boolean
    | ((args: unknown, context: ToolContext) => boolean | Promise<boolean>);
  return typeof needs === "function" ? (await needs(args, context)) === true : needs === true;
}

/** `options` with a hook per kind in `decides`, each asking the main side through `asker`. */
export function bridgedOptions(
  options: SessionOptions,
  decides: ReadonlySet<string>,
  asker: DecisionAsker,
): SessionOptions {
  let hooks = options.hooks;
  let tools = options.tools;
  if (decides.has("prompt-submit"))
    hooks = withHook(
      hooks,
      "userPromptSubmit",
      askingHook(asker, "prompt-submit", (input) => ({ prompt: input.prompt })),
    );
  if (decides.has("tool-before"))
    hooks = withHook(
      hooks,
      "preToolUse",
      askingHook(
        asker,
        "tool-before",
        (input) => ({ toolCall: input.toolCall }),
        (why) => ({
          decision: "deny",
          reason: `No decision from the main thread (${why})`,
        }),
      ),
    );
  if (decides.has("approval") && tools !== undefined) {
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // The main side decides while the run waits, so the tools themselves no longer pause the run.
    tools = tools.map((tool) => {
      if (tool.needsApproval === undefined) return tool;
      const { needsApproval: _, ...rest } = tool;
      return rest as AnyTool;
    });
    hooks = withHook(hooks, "preToolUse", approvalHook(byName, options.hooks?.preToolUse, asker));
  }
  if (decides.has("question") && tools !== undefined) {
    // The main side answers while the run waits, so the ask tool no longer pauses the run.
    const asking = bridgedQuestions(tools, asker, MARGIN_MS);
    if (asking !== undefined) {
      tools = asking.tools;
      hooks = withHook(hooks, "preToolUse", asking.hook);
    }
  }
  if (decides.has("tool-after"))
    hooks = withHook(
      hooks,
      "postToolUse",
      askingHook(asker, "tool-after", (input) => ({ toolCall: input.toolCall, result: input.result })),
    );
  if (decides.has("stop"))
    hooks = withHook(
      hooks,
      "stop",
      askingHook(asker, "stop", (input) => ({ message: input.message, stopReason: input.stopReason })),
    );
  const bridged: SessionOptions = { ...options };
  if (hooks !== undefined) bridged.hooks = hooks;
  if (tools !== undefined) bridged.tools = tools;
  return bridged;
}
