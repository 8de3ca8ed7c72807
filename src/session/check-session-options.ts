/**
 * `checkSessionOptions`: the first problem with `createAgentSession`'s options that can be seen
 * without its state, from their table (session-options.ts).
 *
 * @module
 */

import { checkOptions } from "../config/option-table.ts";
import { notAnObject } from "../config/unknown-option.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import { SESSION_OPTIONS, type SessionOptions } from "./session-options.ts";

/** The first problem with a session's options that can be seen without its state, or undefined. */
export function checkSessionOptions(options: SessionOptions): ConfigError | undefined {
  return notAnObject(options, "The session's options") ?? checkOptions(SESSION_OPTIONS, options);
}
