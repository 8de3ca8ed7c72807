/**
 * Runs the hooks of one event in order, each under its timeout and the run's signal, checks what each
 * returns, applies the failure policy, and folds their decisions into one outcome.
 *
 * @module
 */

import { describeValue, messageOf } from "../errors/message-of.ts";
import { HookError } from "../errors/sdk-error.ts";
import { isPlainJson } from "../message/storable-values.ts";
import type { JsonObject, JsonValue } from "../types.ts";
import type { AgentEvent } from "./agent-events.ts";
import { runWithDeadline } from "./deadline.ts";
import { decidedByOf } from "./decided-by.ts";
import {
  DEFAULT_HOOK_FAILURE_POLICY,
  DEFAULT_HOOK_TIMEOUTS,
  type HookEvent,
  type HookInputs,
  type Hooks,
  hookEntries,
  hookName,
} from "./hooks.ts";

/** The folded outcome of an event's hooks. */
export type HookOutcome =
  | {
      kind: "go";
      context: string[];
      input?: JsonObject;
      output?: string;
      ask?: { reason?: string };
      /** preCompact: the hook's own summary, or that the compaction is skipped. */
      summary?: string;
      skip?: true;
    }
  | { kind: "deny"; reason: string }
  | { kind: "block"; reason: string }
  | { kind: "stop"; reason?: string }
  | { kind: "failed"; error: HookError }
  | { kind: "aborted" };

/** What running hooks needs from the run. */
export interface HookRunContext {
  hooks: Hooks | undefined;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

const DECISIONS: Record<HookEvent, readonly string[]> = {
  sessionStart: ["stop"],
  userPromptSubmit: ["stop"],
  preToolUse: ["allow", "deny", "ask", "stop"],
  postToolUse: ["stop"],
  postToolUseFailure: ["stop"],
  stop: ["allow", "block"],
  preCompact: ["skip"],
  sessionEnd: [],
};

const FIELDS: Record<HookEvent, readonly string[]> = {
  sessionStart: ["decision", "reason", "context"],
  userPromptSubmit: ["decision", "reason", "context"],
  preToolUse: ["decision", "reason", "context", "input"],
  postToolUse: ["decision", "reason", "context", "output"],
  postToolUseFailure: ["decision", "reason", "context"],
  stop: ["decision", "reason"],
  preCompact: ["decision", "reason", "summary"],
  sessionEnd: [],
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks a hook's return value; returns the decision, or what is wrong with it. */
function checkDecision(event: HookEvent, value: unknown): JsonObject | string {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) return `expected an object or nothing, got ${typeof value}`;
  for (const key of Object.keys(value)) {
    if (!FIELDS[event].includes(key)) return `"${key}" is not a field of a ${event} decision`;
  }
  const { decision, reason, context, input, output, summary } = value;
  // sessionEnd takes no field at all, so every event that gets here has decisions to list.
  if (decision !== undefined && !DECISIONS[event].includes(decision as string)) {
    return `decision "${describeValue(decision)}" is not one of: ${DECISIONS[event].join(", ")}`;
  }
  if ((decision === "deny" || decision === "block") && (typeof reason !== "string" || reason === "")) {
    return `decision "${decision}" needs a reason`;
  }
  if (reason !== undefined && typeof reason !== "string") return "reason must be a string";
  if (context !== undefined && typeof context !== "string") return "context must be a string";
  if (output !== undefined && typeof output !== "string") return "output must be a string";
  if (summary !== undefined && (typeof summary !== "string" || summary.trim() === ""))
    return "summary must be a non-empty string";
  if (input !== undefined && !isPlainObject(input)) return "input must be an object";
  if (input !== undefined && !isPlainJson(input)) return "input must be plain JSON";
  return value as JsonObject;
}

/**
 * Runs every hook of `event`. `input` is what the hooks receive, less the signal. A hook's changed tool
 * input is what the next hook sees.
 */
export async function runHooks<E extends HookEvent>(
  event: E,
  input: Omit<HookInputs[E], "signal">,
  context: HookRunContext,
): Promise<HookOutcome> {
  const entries = hookEntries(context.hooks, event);
  const added: string[] = [];
  const go: Extract<HookOutcome, { kind: "go" }> = { kind: "go", context: added };
  let current = input as Omit<HookInputs[E], "signal"> & { toolCall?: { args: JsonObject } };
  for (const [position, entry] of entries.entries()) {
    const name = hookName(entry, event, position);
    const timeoutMs = entry.timeoutMs ?? DEFAULT_HOOK_TIMEOUTS[event];
    const outcome = await runWithDeadline(
      (signal) => entry.handler({ ...current, signal } as HookInputs[E]),
      context.signal,
      timeoutMs,
    );
    if (outcome.kind === "aborted") return { kind: "aborted" };
    let decision: JsonObject | string;
    if (outcome.kind === "done") decision = checkDecision(event, outcome.value);
    else if (outcome.kind === "timeout") decision = `timed out after ${timeoutMs} ms`;
    else decision = `threw: ${messageOf(outcome.error)}`;

    if (typeof decision === "string") {
      const policy = entry.onFailure ?? DEFAULT_HOOK_FAILURE_POLICY[event];
      const error = new HookError(`Hook "${name}" (${event}) ${decision}`, {
        code:
          outcome.kind === "timeout"
            ? "HOOK_TIMEOUT"
            : outcome.kind === "threw"
              ? "HOOK_FAILED"
              : "HOOK_INVALID_DECISION",
        details: { hook: name, event },
        cause: outcome.kind === "threw" ? outcome.error : undefined,
      });
      context.emit({ type: "hook-error", event, hook: name, error, policy });
      if (policy === "open") continue;
      if (event === "preToolUse") return { kind: "deny", reason: `Denied: ${error.message}` };
      return { kind: "failed", error };
    }
    if (Object.keys(decision).length === 0) continue;
    context.emit({ type: "hook-decision", event, hook: name, decision, decidedBy: decidedByOf(decision) });
    const reason = decision.reason as string | undefined;
    if (decision.decision === "stop")
      return reason === undefined ? { kind: "stop" } : { kind: "stop", reason };
    if (decision.decision === "deny") return { kind: "deny", reason: reason as string };
    if (decision.decision === "block") return { kind: "block", reason: reason as string };
    if (decision.decision === "ask") go.ask = reason === undefined ? {} : { reason };
    if (typeof decision.context === "string") added.push(decision.context);
    if (typeof decision.output === "string") go.output = decision.output;
    if (decision.decision === "skip") return { ...go, context: added, skip: true };
    if (typeof decision.summary === "string") go.summary = decision.summary;
    const changed = decision.input as JsonValue;
    if (isPlainObject(changed) && current.toolCall !== undefined) {
      go.input = changed as JsonObject;
      current = { ...current, toolCall: { ...current.toolCall, args: go.input } };
    }
  }
  return go;
}
