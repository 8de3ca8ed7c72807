/**
 * Budgets: limits on a run's tokens, cost and turns, checked after every model turn.
 *
 * @module
 */

import { BudgetError } from "../errors/sdk-error.ts";
import type { Usage } from "../types.ts";
import { totalTokens } from "../usage/usage.ts";

/** Limits on one run. Exceeding one ends the run with stopReason `budget` and a BudgetError. */
export interface Budget {
  /** Input (cached included) plus output tokens, summed over the run's turns. */
  maxTokens?: number;
  /** USD, summed over the run's turns. Needs a price for the model (built in or from `prices`). */
  maxCostUsd?: number;
  /** Model turns; the run ends when the model asks for another turn beyond this. */
  maxTurns?: number;
}

/** Which limit a BudgetError names, what was allowed and what was used. */
export interface BudgetDetails {
  limit: "maxTokens" | "maxCostUsd" | "maxTurns";
  allowed: number;
  used: number;
  usage: Usage;
}

/** Turns a run may take when the caller sets no `maxTurns`. */
export const DEFAULT_MAX_TURNS = 25;

function exceeded(details: BudgetDetails, code: "BUDGET_EXCEEDED" | "MAX_TURNS"): BudgetError {
  const { limit, allowed, used } = details;
  // A turn limit ends a run that used every turn it had while it needed another: the model called tools,
  // or its structured answer needs a retry.
  const message =
    limit === "maxTurns"
      ? `${code === "MAX_TURNS" ? "Turn limit reached: maxTurns" : "Budget reached: budget.maxTurns"} allows ${allowed} turn${allowed === 1 ? "" : "s"}, all taken, and the run needed another`
      : `Budget ${limit} exceeded: ${limit === "maxCostUsd" ? `USD ${used.toFixed(6)} spent` : `${used} used`}, ${allowed} allowed`;
  return new BudgetError(message, { code, details: { ...details } });
}

/**
 * Checks the budget after a turn. `wantsMore` is true when the model asked for another turn (tool
 * calls); the turn limit only matters then. Returns the error for the first limit exceeded.
 */
export function checkBudget(
  budget: Budget | undefined,
  usage: Usage,
  turns: number,
  wantsMore: boolean,
): BudgetError | undefined {
  if (budget === undefined) return undefined;
  const tokens = totalTokens(usage);
  if (budget.maxTokens !== undefined && tokens > budget.maxTokens) {
    return exceeded(
      { limit: "maxTokens", allowed: budget.maxTokens, used: tokens, usage },
      "BUDGET_EXCEEDED",
    );
  }
  const cost = usage.costUsd ?? 0;
  if (budget.maxCostUsd !== undefined && cost > budget.maxCostUsd) {
    return exceeded(
      { limit: "maxCostUsd", allowed: budget.maxCostUsd, used: cost, usage },
      "BUDGET_EXCEEDED",
    );
  }
  if (budget.maxTurns !== undefined && wantsMore && turns >= budget.maxTurns) {
    return exceeded({ limit: "maxTurns", allowed: budget.maxTurns, used: turns, usage }, "BUDGET_EXCEEDED");
  }
  return undefined;
}

/** The error for a run that reached its `maxTurns` option while the model still wanted to go on. */
export function maxTurnsReached(maxTurns: number, usage: Usage): BudgetError {
  return exceeded({ limit: "maxTurns", allowed: maxTurns, used: maxTurns, usage }, "MAX_TURNS");
}
