/**
 * The option names `runAgent`, `runAgentStream` and sessions accept, in one place, so an unknown key
 * from plain JavaScript is caught (see `unknownOption`). Each list is checked against its TypeScript
 * interface both ways: a name that is not an option, or an option missing here, fails to compile.
 *
 * @module
 */

import type { ListsEvery } from "../config/lists-every.ts";
import { CONNECTION_OPTION_KEYS } from "../stream/check-turn.ts";
import type { AgentConfig, AgentOptions } from "./agent-options.ts";

/** Every option of an agent's configuration (what sessions keep between runs). */
export const AGENT_CONFIG_KEYS = [
  ...CONNECTION_OPTION_KEYS,
  "systemPrompt",
  "tools",
  "hooks",
  "thinking",
  "maxTokens",
  "temperature",
  "stopSequences",
  "cache",
  "output",
  "outputRetries",
  "compaction",
  "maxTurns",
  "budget",
  "toolTimeoutMs",
  "toolExecution",
  "maxStopBlocks",
] as const satisfies ReadonlyArray<keyof AgentConfig>;

/** Every option of `runAgent` and `runAgentStream`. */
export const AGENT_OPTION_KEYS = [
  ...AGENT_CONFIG_KEYS,
  "prompt",
  "attachments",
  "messages",
  "signal",
  "sessionId",
] as const satisfies ReadonlyArray<keyof AgentOptions>;

const _everyOption: [
  ListsEvery<AgentConfig, (typeof AGENT_CONFIG_KEYS)[number]>,
  ListsEvery<AgentOptions, (typeof AGENT_OPTION_KEYS)[number]>,
] = [true, true];
void _everyOption;
