/**
 * The checks of the bridge's own options, on both sides: unknown keys (with "did you mean"), handlers
 * that are not functions, decision kinds and timeouts, and the numbers that size the connection.
 *
 * @module
 */

import { invalidOption, isPlainObject, notDuration, notFunctionOption } from "../config/option-checks.ts";
import { checkOptions, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import { notAnObject, unknownOption } from "../config/unknown-option.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import { type BridgeReport, DECISION_KINDS, type DecisionKind } from "./decisions.ts";
import type { ConnectSessionOptions } from "./remote-session.ts";

/** The bridge's own options of {@link serveSession} (beside a session's). */
export interface ServeBridgeOptions {
  /** How long a decision asked of the main thread may take, per kind (the main side may set its own). */
  decisionTimeoutsMs?: Partial<Record<DecisionKind, number>>;
  /**
   * Told what the bridge noticed and ignored (a decision that timed out, a late or unknown answer).
   * Every report also goes to the main side's `onReport`.
   */
  onReport?: (report: BridgeReport) => void;
}

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

/**
 * A ConfigError when `value` is not an object of handlers (functions) by decision kind (only ever
 * called for a set value: `checkOptions` skips an absent one).
 */
function notDecisionHandlers(value: unknown, path: string): ConfigError | undefined {
  if (!isPlainObject(value))
    return invalidOption(
      `${path} must be an object of handlers by decision kind ({ approval: (request) => answer, … }), got ${showValue(value)}`,
      path,
    );
  const unknown = unknownOption(value, [...DECISION_KINDS, "unknown"], "decision kind");
  if (unknown !== undefined) return invalidOption(unknown.message, `${path}.${unknown.path}`);
  for (const [kind, handler] of Object.entries(value)) {
    const problem = notFunctionOption(handler, `${path}.${kind}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A ConfigError when `value` is not a whole number ≥ 1 (only ever called for a set value, as above). */
function notWindow(value: unknown): ConfigError | undefined {
  if (Number.isSafeInteger(value) && (value as number) >= 1) return undefined;
  return invalidOption(`window must be a whole number of events ≥ 1, got ${showValue(value)}`, "window");
}

/** Every option of `connectSession`, in the order they are checked. */
export const CONNECT_OPTIONS: OptionTable<ConnectSessionOptions> = {
  onDecision: notDecisionHandlers,
  onReport: notFunctionOption,
  decisionTimeoutsMs: notDecisionTimeouts,
  restore: null,
  connectTimeoutMs: notDuration,
  workerTimeoutMs: notDuration,
  window: notWindow,
};

/** The bridge's own options of `serveSession` (the session's are checked as the session is made). */
export const SERVE_OPTIONS: OptionTable<ServeBridgeOptions> = {
  decisionTimeoutsMs: notDecisionTimeouts,
  onReport: notFunctionOption,
};

/** The first problem with `connectSession`'s options, or undefined. */
export function checkConnectOptions(options: unknown): ConfigError | undefined {
  return (
    notAnObject(options, "connectSession's second argument") ??
    checkOptions(CONNECT_OPTIONS, options as object)
  );
}

/** The first problem with the bridge's own options of `serveSession`, or undefined. */
export function checkServeOptions(options: unknown): ConfigError | undefined {
  return checkOptions(SERVE_OPTIONS, (options ?? {}) as object, { unknownKeys: false });
}
