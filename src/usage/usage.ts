/**
 * Usage arithmetic: an empty record, and the sum of two (per turn → per run → per session).
 *
 * @module
 */

import type { Usage } from "../types.ts";

/** A usage record with every count at zero and no cost. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** The sum of two usage records. The cost is summed when either side has one. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: a.reasoning + b.reasoning,
  };
  if (a.costUsd !== undefined || b.costUsd !== undefined)
    sum.costUsd = roundUsd((a.costUsd ?? 0) + (b.costUsd ?? 0));
  return sum;
}

/**
 * A dollar amount rounded to a trillionth of a dollar: sums of prices print as people write them
 * (0.00017, not 0.00016999999999999999) and stay exact far below any real price.
 */
export function roundUsd(amount: number): number {
  return Math.round(amount * 1e12) / 1e12;
}

/** All tokens the model read and wrote. */
export function totalTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
}
