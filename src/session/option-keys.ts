/**
 * The option names sessions accept (`createAgentSession`, `createSession`), checked against their
 * interfaces both ways like the agent's (see `agent/option-keys.ts`).
 *
 * @module
 */

import { AGENT_CONFIG_KEYS } from "../agent/option-keys.ts";
import type { ListsEvery } from "../config/lists-every.ts";
import type { CreateSessionOptions } from "./create-session.ts";
import type { SessionOptions } from "./session-options.ts";

/** Every option of `createAgentSession`. */
export const SESSION_OPTION_KEYS = [
  ...AGENT_CONFIG_KEYS,
  "restore",
  "sessionId",
  "metadata",
  "approvalSecret",
] as const satisfies ReadonlyArray<keyof SessionOptions>;

/** Every option of `createSession`. */
export const CREATE_SESSION_OPTION_KEYS = [
  ...SESSION_OPTION_KEYS,
  "canUseTool",
  "canUseToolTimeoutMs",
] as const satisfies ReadonlyArray<keyof CreateSessionOptions>;

const _everyOption: [
  ListsEvery<SessionOptions, (typeof SESSION_OPTION_KEYS)[number]>,
  ListsEvery<CreateSessionOptions, (typeof CREATE_SESSION_OPTION_KEYS)[number]>,
] = [true, true];
void _everyOption;
