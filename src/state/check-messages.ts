/**
 * Checks a conversation given from outside (`runAgent`'s `messages`) the way a restore would: its
 * nesting depth, the shape of every message (the state's shape check), and every tool call
 * answered. It sits below the agent layer, which loads it only when `messages` are passed, so a
 * program that never passes them never downloads the check.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../message/storable-values.ts";
import { type Check, ShapeProblem } from "./shape-check.ts";
import { checkMessageList } from "./state-shape.ts";
import { unpairedToolCall } from "./tool-call-pairs.ts";

/** How deep a state may nest: messages → content → tool arguments, with room to spare. */
export const MAX_STATE_DEPTH = MAX_JSON_DEPTH + 28;

/** A ConfigError about a state (or conversation) at `path`. */
export function invalidState(message: string, path: string): ConfigError {
  return new ConfigError(`Invalid session state at ${path || "(root)"}: ${message}`, {
    code: "CONFIG_INVALID",
    path,
  });
}

/**
 * Runs a shape check: what it accepts, or its problem as a ConfigError whose path starts with
 * `prefix`. Any other throw passes through.
 */
export function checkShape<T>(check: Check<T>, value: unknown, prefix: string[]): T | ConfigError {
  try {
    return check(value);
  } catch (problem) {
    if (!(problem instanceof ShapeProblem)) throw problem;
    return invalidState(problem.words, [...prefix, ...problem.path].join("."));
  }
}

/** The first problem with `messages` as a ConfigError naming its path, or undefined. */
export function checkMessages(messages: unknown): ConfigError | undefined {
  if (nestsDeeperThan(messages, MAX_STATE_DEPTH - 1)) {
    return invalidState(`nested deeper than ${MAX_STATE_DEPTH} levels`, "messages");
  }
  const checked = checkShape(checkMessageList, messages, ["messages"]);
  if (checked instanceof ConfigError) return checked;
  const unpaired = unpairedToolCall(checked);
  return unpaired === undefined ? undefined : invalidState(unpaired.problem, unpaired.path);
}
