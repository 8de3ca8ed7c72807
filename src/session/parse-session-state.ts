/**
 * Reads a SessionState from untrusted JSON: migrates older versions, checks its shape, and
 * checks that the conversation can be sent. Every problem is a ConfigError `CONFIG_INVALID` whose
 * `path` names the first bad field — never a crash later in the loop.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { nestsDeeperThan } from "../message/storable-values.ts";
import { checkShape, invalidState as invalid, MAX_STATE_DEPTH } from "../state/check-messages.ts";
import { checkSessionStateShape } from "../state/state-shape.ts";
import { unpairedToolCall } from "../state/tool-call-pairs.ts";
import { branchesProblem } from "./branches.ts";
import { SESSION_STATE_VERSION, type SessionState } from "./session-state.ts";

type Migration = (state: Record<string, unknown>) => Record<string, unknown>;

/**
 * Steps from each older version to the next. Version 0 was the pre-release format: one
 * `"provider/model"` string, no parameters, turn count, queue or metadata. Version 1 had no approvals.
 */
export const MIGRATIONS: Record<number, Migration> = {
  0: (state) => {
    const [provider, ...rest] = (typeof state.model === "string" ? state.model : "").split("/");
    const { model: _, ...others } = state;
    return {
      ...others,
      version: 1,
      provider,
      model: rest.join("/"),
      parameters: {},
      turns: 0,
      queue: [],
      metadata: {},
    };
  },
  1: (state) => ({ ...state, version: 2, pendingApprovals: [], pendingResults: [], toolPermissions: {} }),
};

function migrate(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("expected an object", "");
  }
  let state = value as Record<string, unknown>;
  if (typeof state.version !== "number" || !Number.isInteger(state.version)) {
    throw invalid("expected an integer version", "version");
  }
  if (state.version > SESSION_STATE_VERSION) {
    throw invalid(
      `version ${state.version} was written by a newer Wisp (this one reads up to ${SESSION_STATE_VERSION})`,
      "version",
    );
  }
  while ((state.version as number) < SESSION_STATE_VERSION) {
    const step = MIGRATIONS[state.version as number];
    if (step === undefined) throw invalid(`version ${state.version} cannot be migrated`, "version");
    state = step(state);
  }
  return state;
}

/** A ConfigError when a field of the state nests deeper than {@link MAX_STATE_DEPTH} (checked without recursion). */
function nestingProblem(value: unknown): ConfigError | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, field] of Object.entries(value)) {
    if (nestsDeeperThan(field, MAX_STATE_DEPTH - 1)) {
      return invalid(`nested deeper than ${MAX_STATE_DEPTH} levels`, key);
    }
  }
  return undefined;
}

/**
 * Parses and checks a SessionState (migrating older versions). Throws ConfigError(CONFIG_INVALID)
 * naming the first problem.
 *
 * @example
 * ```ts
 * try {
 *   const state = parseSessionState(JSON.parse(saved));
 *   console.log(state.messages.length, state.usage.costUsd);
 * } catch (error) {
 *   if (isSdkError(error)) console.error(error.code, error.path); // "CONFIG_INVALID", "messages.3.role"
 * }
 * ```
 */
export function parseSessionState(value: unknown): SessionState {
  const tooDeep = nestingProblem(value);
  if (tooDeep !== undefined) throw tooDeep;
  const migrated = migrate(value);
  const checked = checkShape(checkSessionStateShape, migrated, []);
  if (checked instanceof ConfigError) throw checked;
  const state = checked as SessionState;
  const paused = state.pendingApprovals.length > 0 || (state.pendingQuestions?.length ?? 0) > 0;
  const unpaired =
    (paused ? pausedTurnProblem(state) : undefined) ??
    unpairedToolCall(paused ? state.messages.slice(0, -1) : state.messages);
  if (unpaired !== undefined) throw invalid(unpaired.problem, unpaired.path);
  if (
    state.compaction !== undefined &&
    !state.messages.some((message) => message.id === state.compaction?.firstKeptId)
  )
    throw invalid("the compaction keeps from a message that is not in messages", "compaction.firstKeptId");
  if (!paused && state.pendingResults.length > 0)
    throw invalid("results held for a pause, but nothing waits for approval", "pendingResults");
  // Also without branches: the tree is what refuses a message id that repeats in the conversation.
  const forked = branchesProblem(state.messages, state.branches ?? []);
  if (forked !== undefined) throw invalid(forked.problem, forked.path);
  return state;
}

/**
 * What is wrong with a paused state's last turn, or undefined: its last message must be the assistant
 * message whose calls wait, and each of those calls is either pending (under its own tool's name),
 * held back behind a pending call (sequential tools), or has a held result — exactly once.
 */
function pausedTurnProblem(state: SessionState): { path: string; problem: string } | undefined {
  const last = state.messages.at(-1);
  const calls = last?.role === "assistant" ? last.content.filter((part) => part.type === "tool_call") : [];
  if (calls.length === 0)
    return {
      path: "pendingApprovals",
      problem: "approvals pending, but the last message made no tool calls",
    };
  const answered = new Map<string, string>();
  // Questions wait like approvals: each a call of the last message, once.
  const waiting = [
    ...state.pendingApprovals.map((approval, index) => ({ approval, path: `pendingApprovals.${index}` })),
    ...(state.pendingQuestions ?? []).map((approval, index) => ({
      approval,
      path: `pendingQuestions.${index}`,
    })),
  ];
  for (const { approval, path } of waiting) {
    const call = calls.find((candidate) => candidate.id === approval.toolCallId);
    if (call === undefined)
      return { path, problem: `tool call ${approval.toolCallId} is not one of the last message's` };
    if (call.name !== approval.toolName)
      return { path, problem: `tool call ${call.id} is a call of "${call.name}"` };
    if (answered.has(call.id)) return { path, problem: `tool call ${call.id} is pending twice` };
    answered.set(call.id, path);
  }
  for (const { approval, path: at } of waiting) {
    for (const [position, held] of (approval.holds ?? []).entries()) {
      const path = `${at}.holds.${position}`;
      if (!calls.some((call) => call.id === held))
        return { path, problem: `tool call ${held} is not one of the last message's` };
      if (answered.has(held)) return { path, problem: `tool call ${held} is answered twice` };
      answered.set(held, path);
    }
  }
  for (const [index, result] of state.pendingResults.entries()) {
    const path = `pendingResults.${index}`;
    if (!calls.some((call) => call.id === result.toolCallId))
      return { path, problem: `tool call ${result.toolCallId} is not one of the last message's` };
    if (answered.has(result.toolCallId))
      return { path, problem: `tool call ${result.toolCallId} is answered twice` };
    answered.set(result.toolCallId, path);
  }
  const missing = calls.find((call) => !answered.has(call.id));
  return missing === undefined
    ? undefined
    : { path: `messages.${state.messages.length - 1}`, problem: `tool call ${missing.id} has no result` };
}
