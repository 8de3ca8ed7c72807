/**
 * Turns an agent's configuration into what the loop and the tool runner use each turn.
 *
 * @module
 */

import { optionKeys } from "../config/option-table.ts";
import { CONNECTION_OPTIONS } from "../stream/connection-options.ts";
import type { ModelRequest } from "../types.ts";
import { type AgentConfig, DEFAULT_MAX_STOP_BLOCKS } from "./agent-options.ts";
import { DEFAULT_MAX_TURNS } from "./budget.ts";
import { type Tool, toolSpec } from "./define-tool.ts";
import type { LoopSetup } from "./run-context.ts";

const REQUEST_KEYS = [
  "systemPrompt",
  "maxTokens",
  "temperature",
  "thinking",
  "stopSequences",
  "cache",
] as const satisfies ReadonlyArray<keyof ModelRequest & keyof AgentConfig>;

const CONNECTION_KEYS = optionKeys(CONNECTION_OPTIONS);

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/** The loop's view of `config`. */
export function loopSetup(config: AgentConfig): LoopSetup {
  const request: LoopSetup["request"] = pick(config, REQUEST_KEYS);
  if (config.tools?.length) request.tools = config.tools.map(toolSpec);
  return {
    request,
    turnOptions: pick(config, CONNECTION_KEYS),
    budget: config.budget,
    maxTurns: config.maxTurns ?? DEFAULT_MAX_TURNS,
    maxStopBlocks: config.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS,
  };
}

/** The tools of `config` by name. */
export function toolsByName(config: AgentConfig): Map<string, Tool<unknown>> {
  return new Map((config.tools ?? []).map((tool) => [tool.name, tool]));
}
