/**
 * The types of an agent's options, checked before a run reads any of them — the shapes plain
 * JavaScript can get wrong (`tools` that is no array, a hook under a misspelt event, a `budget` key
 * that would silently not limit anything). Values and ranges (`maxTurns`, `temperature`, …) are
 * checked afterwards by `checkConfig`, once the provider is known.
 *
 * @module
 */

import {
  invalidOption,
  isPlainObject,
  nestedOptions,
  notStringOption,
  notStringsOption,
} from "../config/option-checks.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import { MAX_ID_LENGTH } from "../message/storable-values.ts";
import { checkConnection } from "../stream/check-connection.ts";
import { cacheProblem } from "../stream/check-turn-request.ts";
import type { Budget } from "./budget.ts";
import { DEFAULT_HOOK_TIMEOUTS, type HookEntry, type HookEvent } from "./hooks.ts";

/** Every option of `budget`. */
export const BUDGET_KEYS = ["maxTokens", "maxCostUsd", "maxTurns"] as const satisfies ReadonlyArray<
  keyof Budget
>;

/** Every option of a hook entry (`{ handler, name, timeoutMs, onFailure }`). */
export const HOOK_ENTRY_KEYS = ["name", "handler", "timeoutMs", "onFailure"] as const satisfies ReadonlyArray<
  keyof HookEntry<HookEvent>
>;

// Adding an option to Budget or HookEntry without listing it above fails to compile here.
const _everyNestedOption: [
  [Exclude<keyof Budget, (typeof BUDGET_KEYS)[number]>] extends [never] ? true : never,
  [Exclude<keyof HookEntry<HookEvent>, (typeof HOOK_ENTRY_KEYS)[number]>] extends [never] ? true : never,
] = [true, true];
void _everyNestedOption;

/** The hook events, from the table that gives each its timeout (so it cannot miss one). */
const HOOK_EVENTS = Object.keys(DEFAULT_HOOK_TIMEOUTS) as HookEvent[];

/** A hook: a function, or an entry with a `handler` function. */
function checkHook(value: unknown, path: string): ConfigError | undefined {
  if (typeof value === "function") return undefined;
  if (!isPlainObject(value)) {
    return invalidOption(`${path} must be a function or { handler }, got ${showValue(value)}`, path);
  }
  const unknown = nestedOptions(value, path, HOOK_ENTRY_KEYS);
  if (unknown !== undefined) return unknown;
  if (typeof value.handler !== "function") {
    return invalidOption(
      `${path}.handler must be a function, got ${showValue(value.handler)}`,
      `${path}.handler`,
    );
  }
  if (value.onFailure !== undefined && value.onFailure !== "open" && value.onFailure !== "closed") {
    return invalidOption(
      `${path}.onFailure must be "open" or "closed", got ${showValue(value.onFailure)}`,
      `${path}.onFailure`,
    );
  }
  return notStringOption(value.name, `${path}.name`);
}

/** `hooks`: an object of known events, each a hook or an array of hooks. */
function checkHooks(value: unknown): ConfigError | undefined {
  const problem = nestedOptions(value, "hooks", HOOK_EVENTS);
  if (problem !== undefined || value === undefined) return problem;
  for (const [event, list] of Object.entries(value as object)) {
    if (list === undefined) continue;
    const items: unknown[] = Array.isArray(list) ? list : [list];
    for (const [index, item] of items.entries()) {
      const found = checkHook(item, Array.isArray(list) ? `hooks.${event}.${index}` : `hooks.${event}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `tools`: an array of tools (`defineTool`), with distinct names. */
export function checkTools(value: unknown): ConfigError | undefined {
  if (value === undefined) return undefined;
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
    if (seen.has(candidate.name))
      return invalidOption(`Two tools are named "${candidate.name}"`, `tools.${index}.name`);
    seen.add(candidate.name);
  }
  return undefined;
}

function checkToolExecution(value: unknown): ConfigError | undefined {
  if (value === undefined || value === "parallel" || value === "sequential") return undefined;
  return invalidOption(
    `toolExecution must be "parallel" or "sequential", got ${showValue(value)}`,
    "toolExecution",
  );
}

/**
 * The first option of an agent's configuration (or `runAgent`'s options) whose type is wrong, or
 * undefined: how to reach the model ({@link checkConnection}), `systemPrompt`, `tools`, `hooks`,
 * `stopSequences`, `toolExecution`, `budget`, `cache` and `sessionId`. Unknown top-level keys are the caller's
 * check (each entry point knows its own list).
 */
export function checkOptionTypes(options: object): ConfigError | undefined {
  const config = options as Record<string, unknown>;
  return (
    checkConnection(config) ??
    notStringOption(config.systemPrompt, "systemPrompt") ??
    checkTools(config.tools) ??
    checkHooks(config.hooks) ??
    notStringsOption(config.stopSequences, "stopSequences") ??
    checkToolExecution(config.toolExecution) ??
    nestedOptions(config.budget, "budget", BUDGET_KEYS) ??
    cacheProblem(config.cache) ??
    (config.compaction === true
      ? undefined
      : nestedOptions(config.compaction, "compaction", [
          "maxTokens",
          "fraction",
          "keepTurns",
          "instructions",
          "native",
        ])) ??
    sessionIdProblem(config.sessionId)
  );
}

/** `sessionId`: a string of 1 to {@link MAX_ID_LENGTH} characters, as a stored session's id must be. */
function sessionIdProblem(value: unknown): ConfigError | undefined {
  const problem = notStringOption(value, "sessionId");
  if (problem !== undefined || value === undefined) return problem;
  const { length } = value as string;
  if (length > 0 && length <= MAX_ID_LENGTH) return undefined;
  return invalidOption(`sessionId must be 1 to ${MAX_ID_LENGTH} characters long, got ${length}`, "sessionId");
}
