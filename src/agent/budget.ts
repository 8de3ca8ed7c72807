/**
 * Budgets: limits on tokens and cost, for one run (`budget`) or a whole session (`sessionBudget`),
 * checked after every model turn; and the turn limit of a run (`maxTurns`).
 *
 * @module
 */

import { BudgetError } from "../errors/sdk-error.ts";
import type { Usage } from "../types.ts";
import { addUsage, totalTokens } from "../usage/usage.ts";

/**
 * Limits on spending. As `budget` they hold for one run; as a session's `sessionBudget`, for every run
 * of the session together. Going over one ends the run after the turn that did, with stopReason
 * `budget` and a BudgetError `BUDGET_EXCEEDED`. (Turns are limited by `maxTurns`, not here.)
 */
export interface Budget {
  /** Input (cached included) plus output tokens, summed over the run's (or the session's) turns. */
  maxTokens?: number;
  /** USD, summed likewise. Needs a price for the model (built in or from `prices`). */
  maxCostUsd?: number;
}

/** What a limit holds for: one run (`budget`, `maxTurns`) or the whole session (`sessionBudget`). */
export type BudgetScope = "run" | "session";

/** Which limit a BudgetError names, what it allowed, what was used, and what it holds for. */
export interface BudgetDetails {
  /** The limit that was exceeded. */
  limit: "maxTokens" | "maxCostUsd" | "maxTurns";
  /** Its value: tokens, USD or turns. */
  allowed: number;
  /** What was used when the run ended, in the same unit. */
  used: number;
  /** The usage the limit was measured on: the run's, or for `scope: "session"` the session's. */
  usage: Usage;
  /** Whether the limit holds for the run (`budget`, `maxTurns`) or the whole session (`sessionBudget`). */
  scope: BudgetScope;
}

/** A session's budget as a run sees it: the limits, and what the session spent before this run. */
export interface SessionBudget {
  limits: Budget;
  spent: Usage;
}

/** Turns a run may take when the caller sets no `maxTurns`. */
export const DEFAULT_MAX_TURNS = 25;

function exceeded(details: BudgetDetails): BudgetError {
  const { limit, allowed, used, scope } = details;
  const spent = limit === "maxCostUsd" ? `USD ${used.toFixed(6)} spent` : `${used} tokens used`;
  const message = `Budget ${scope === "run" ? "budget" : "sessionBudget"}.${limit} exceeded: ${spent}, ${allowed} allowed`;
  return new BudgetError(message, { code: "BUDGET_EXCEEDED", details: { ...details } });
}

/** The first limit of `budget` that `usage` goes over (`atLimit`: or reaches), as its error. */
function overLimit(
  budget: Budget,
  usage: Usage,
  scope: BudgetScope,
  atLimit: boolean,
): BudgetError | undefined {
  for (const [limit, used] of [
    ["maxTokens", totalTokens(usage)],
    ["maxCostUsd", usage.costUsd ?? 0],
  ] as const) {
    const allowed = budget[limit];
    if (allowed !== undefined && (atLimit ? used >= allowed : used > allowed))
      return exceeded({ limit, allowed, used, usage, scope });
  }
  return undefined;
}

/**
 * Checks the limits after a turn: the run's `budget` on the run's usage, then the session's on what
 * the session spent before the run plus the run's usage. Returns the error for the first one exceeded.
 */
export function checkBudget(
  budget: Budget | undefined,
  session: SessionBudget | undefined,
  usage: Usage,
): BudgetError | undefined {
  return (
    (budget === undefined ? undefined : overLimit(budget, usage, "run", false)) ??
    (session === undefined
      ? undefined
      : overLimit(session.limits, addUsage(session.spent, usage), "session", false))
  );
}

/** The error for a run the session's budget leaves no room for (what it spent reached a limit), or undefined. */
export function sessionBudgetSpent(session: SessionBudget | undefined): BudgetError | undefined {
  return session && overLimit(session.limits, session.spent, "session", true);
}

/** The error for a run that reached its `maxTurns` while the model still wanted to go on. */
export function maxTurnsReached(maxTurns: number, usage: Usage): BudgetError {
  return new BudgetError(
    `Turn limit reached: maxTurns is ${maxTurns}, all taken, and the run needed another turn`,
    {
      code: "MAX_TURNS",
      details: { limit: "maxTurns", allowed: maxTurns, used: maxTurns, usage, scope: "run" },
    },
  );
}
