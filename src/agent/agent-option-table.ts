/**
 * The option tables of an agent: its configuration (what sessions keep between runs: how to reach the
 * model, the model parameters, tools, hooks, limits) and `runAgent`'s options (that, plus the run's
 * input). Each option's check, default and doc live here once; the unknown-key check, the runtime
 * checks and the key lists are derived from the tables (see config/option-table.ts). Values that
 * depend on the provider (`thinking`, `temperature`, `maxTokens`) and the price a cost budget needs are
 * checked once the model is resolved (check-config.ts).
 *
 * @module
 */

import { compactionProblem } from "../compaction/compaction-options.ts";
import {
  invalidOption,
  isPlainObject,
  notCountOption,
  notDuration,
  notFunctionOption,
  notNonNegativeOption,
  notObjectOption,
  notSignalOption,
  notStringOption,
  notStringsOption,
  oneOfOption,
} from "../config/option-checks.ts";
import { nestedTable, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import { MAX_ID_LENGTH } from "../message/storable-values.ts";
import { cacheProblem } from "../stream/check-turn-request.ts";
import { CONNECTION_OPTIONS } from "../stream/connection-options.ts";
import type { AgentConfig, AgentOptions } from "./agent-options.ts";
import type { Budget } from "./budget.ts";
import { attachmentsProblem, promptProblem } from "./check-prompt.ts";
import { toolPermissionProblem } from "./define-tool.ts";
import { DEFAULT_HOOK_TIMEOUTS, type HookEntry, type HookEvent, type Hooks } from "./hooks.ts";

/** The limits of `budget` and `sessionBudget`; `maxTurns` there is refused with where it went. */
export const BUDGET_OPTIONS: OptionTable<Budget & { maxTurns?: never }> = {
  maxTokens: notNonNegativeOption,
  maxCostUsd: notNonNegativeOption,
  maxTurns: (_value, path) => invalidOption(`${path}: use the top-level maxTurns`, path),
};

/** The fields of a hook entry (`{ handler, name, timeoutMs, onFailure }`). */
export const HOOK_ENTRY_OPTIONS: OptionTable<HookEntry<HookEvent>> = {
  handler: {
    required: true,
    check: (value, path) =>
      typeof value === "function"
        ? undefined
        : invalidOption(`${path} must be a function, got ${showValue(value)}`, path),
  },
  onFailure: oneOfOption(["open", "closed"]),
  name: notStringOption,
  timeoutMs: notDuration,
};

const hookEntry = nestedTable(HOOK_ENTRY_OPTIONS);

/** A hook: a function, or an entry with a `handler` function. */
function checkHook(value: unknown, path: string): ConfigError | undefined {
  if (typeof value === "function") return undefined;
  if (!isPlainObject(value)) {
    return invalidOption(`${path} must be a function or { handler }, got ${showValue(value)}`, path);
  }
  return hookEntry(value, path);
}

/** An event's hooks: one hook, or an array of them. */
function checkHookList(list: unknown, path: string): ConfigError | undefined {
  if (!Array.isArray(list)) return checkHook(list, path);
  for (const [index, item] of list.entries()) {
    const found = checkHook(item, `${path}.${index}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The hook events of `hooks`, each a hook or an array of hooks: one row per event of the table that
 * gives each its timeout (typed over every event, so it cannot miss one).
 */
export const HOOKS_OPTIONS = Object.fromEntries(
  Object.keys(DEFAULT_HOOK_TIMEOUTS).map((event) => [event, checkHookList]),
) as OptionTable<Hooks>;

/** `tools` when set (checkOptions skips an absent option): an array of tools (`defineTool`), with distinct names. */
function checkTools(value: unknown): ConfigError | undefined {
  if (!Array.isArray(value))
    return invalidOption(`tools must be an array of tools, got ${showValue(value)}`, "tools");
  const seen = new Set<string>();
  for (const [index, tool] of value.entries()) {
    const candidate = (isPlainObject(tool) ? tool : {}) as Record<string, unknown>;
    if (
      typeof candidate.name !== "string" ||
      typeof candidate.description !== "string" ||
      typeof candidate.execute !== "function" ||
      typeof candidate.inputSchema !== "object" ||
      candidate.inputSchema === null
    ) {
      const name = typeof candidate.name === "string" ? ` ("${candidate.name}")` : "";
      return invalidOption(
        `Each tool needs a name, a description, an inputSchema and execute (use defineTool); tool ${index}${name} does not`,
        `tools.${index}`,
      );
    }
    const approval = candidate.needsApproval;
    if (approval !== undefined && typeof approval !== "boolean" && typeof approval !== "function") {
      return invalidOption(
        `tools.${index}.needsApproval must be true, false or a function, got ${showValue(approval)}`,
        `tools.${index}.needsApproval`,
      );
    }
    const timeout = notDuration(candidate.timeoutMs, `tools.${index}.timeoutMs`);
    if (timeout !== undefined) return timeout;
    const permission = toolPermissionProblem(candidate, `tools.${index}.`);
    if (permission !== undefined) return permission;
    if (seen.has(candidate.name))
      return invalidOption(`Two tools are named "${candidate.name}"`, `tools.${index}.name`);
    seen.add(candidate.name);
  }
  return undefined;
}

/** Every option of an agent's configuration (what sessions keep between runs), in the order they are checked. */
export const AGENT_CONFIG_OPTIONS: OptionTable<AgentConfig> = {
  ...CONNECTION_OPTIONS,
  systemPrompt: notStringOption,
  tools: checkTools,
  hooks: nestedTable(HOOKS_OPTIONS),
  thinking: null,
  maxTokens: null,
  temperature: null,
  stopSequences: notStringsOption,
  cache: cacheProblem,
  output: null,
  outputRetries: (value, path) => notCountOption(value, path, true),
  compaction: compactionProblem,
  maxTurns: notCountOption,
  budget: nestedTable(BUDGET_OPTIONS),
  toolTimeoutMs: notCountOption,
  toolExecution: oneOfOption(["parallel", "sequential"]),
  maxStopBlocks: (value, path) => notCountOption(value, path, true),
  // Checked whole when the run loads its permission rules (permission-rules.ts): no bytes for runs without.
  permissions: notObjectOption,
  // Checked whole when the run loads its telemetry (telemetry-problem.ts): no bytes for runs without.
  telemetry: notObjectOption,
};

/** `sessionId`: a string of 1 to {@link MAX_ID_LENGTH} characters, as a stored session's id must be. */
export function sessionIdProblem(value: unknown): ConfigError | undefined {
  // Not a string: the type's ConfigError, or undefined when absent.
  if (typeof value !== "string") return notStringOption(value, "sessionId");
  const { length } = value;
  if (length > 0 && length <= MAX_ID_LENGTH) return undefined;
  return invalidOption(`sessionId must be 1 to ${MAX_ID_LENGTH} characters long, got ${length}`, "sessionId");
}

/** Every option of `runAgent` and `runAgentStream`, in the order they are checked. */
export const AGENT_OPTIONS: OptionTable<AgentOptions> = {
  ...AGENT_CONFIG_OPTIONS,
  prompt: { required: true, check: promptProblem },
  attachments: attachmentsProblem,
  messages: (value, path) =>
    Array.isArray(value)
      ? undefined
      : invalidOption(`${path} must be an array of messages (a previous run's result.value.messages)`, path),
  signal: notSignalOption,
  sessionId: sessionIdProblem,
  onEvent: notFunctionOption,
};
