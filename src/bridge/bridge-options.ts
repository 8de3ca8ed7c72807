/**
 * The checks of the bridge's own options, on both sides: unknown keys (with "did you mean"), handlers
 * that are not functions, decision kinds and timeouts, and the numbers that size the connection.
 *
 * @module
 */

import { didYouMean } from "../config/did-you-mean.ts";
import { invalidOption, isPlainObject, notDuration, notFunctionOption } from "../config/option-checks.ts";
import { showValue } from "../config/show-value.ts";
import { notAnObject, unknownOption } from "../config/unknown-option.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import { DECISION_KINDS } from "./decisions.ts";

/** Every option of `connectSession`. */
export const CONNECT_OPTION_KEYS = [
  "onDecision",
  "decisionKinds",
  "decisionTimeoutsMs",
  "restore",
  "onReport",
  "connectTimeoutMs",
  "workerTimeoutMs",
  "window",
] as const;

/** The options `serveSession` takes besides a session's. */
export const SERVE_OPTION_KEYS = ["decisionTimeoutsMs", "onReport"] as const;

/** A ConfigError when `value` is set but not decision kinds mapped to milliseconds ≥ 0. */
export function notDecisionTimeouts(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return invalidOption(
      `${path} must be an object of milliseconds per decision kind, got ${showValue(value)}`,
      path,
    );
  const unknown = unknownOption(value, DECISION_KINDS, "decision kind");
  if (unknown !== undefined) return invalidOption(unknown.message, `${path}.${unknown.path}`);
  for (const [kind, ms] of Object.entries(value)) {
    const problem = notDuration(ms, `${path}.${kind}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function notDecisionKinds(value: unknown): ConfigError | undefined {
  if (value === undefined) return undefined;
  const kinds = DECISION_KINDS as readonly unknown[];
  if (!Array.isArray(value))
    return invalidOption(
      `decisionKinds must be a list of decision kinds, got ${showValue(value)}`,
      "decisionKinds",
    );
  const index = value.findIndex((kind) => !kinds.includes(kind));
  if (index === -1) return undefined;
  const wrong = value[index];
  const guess = typeof wrong === "string" ? didYouMean(wrong, DECISION_KINDS) : undefined;
  const hint =
    guess === undefined ? `; the kinds are ${DECISION_KINDS.join(", ")}` : ` — did you mean "${guess}"?`;
  return invalidOption(`Unknown decision kind ${showValue(wrong)}${hint}`, `decisionKinds.${index}`);
}

function notWindow(value: unknown): ConfigError | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= 1)) return undefined;
  return invalidOption(`window must be a whole number of events ≥ 1, got ${showValue(value)}`, "window");
}

/** The first problem with `connectSession`'s options, or undefined. */
export function checkConnectOptions(options: unknown): ConfigError | undefined {
  const notObject = notAnObject(options, "connectSession's second argument");
  if (notObject !== undefined) return notObject;
  const given = options as Record<string, unknown>;
  return (
    unknownOption(given, CONNECT_OPTION_KEYS) ??
    notFunctionOption(given.onDecision, "onDecision") ??
    notFunctionOption(given.onReport, "onReport") ??
    notDecisionKinds(given.decisionKinds) ??
    notDecisionTimeouts(given.decisionTimeoutsMs, "decisionTimeoutsMs") ??
    notDuration(given.connectTimeoutMs, "connectTimeoutMs") ??
    notDuration(given.workerTimeoutMs, "workerTimeoutMs") ??
    notWindow(given.window)
  );
}
