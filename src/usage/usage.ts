/**
 * Layer `usage` (docs/architecture.md): usage arithmetic, the price table and cost.
 *
 * Usage arithmetic: an empty record, and the sum of two (per turn → per run → per session).
 *
 * @module
 */

import type { Usage } from "../types.ts";

/** A usage record with every count at zero and no cost. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** The token counts of a usage record, in the order they are stored. */
const COUNTS = ["input", "output", "cacheRead", "cacheWrite", "reasoning"] as const;

/**
 * The sum of two usage records. Counts stop at `Number.MAX_SAFE_INTEGER`, so a summed record still
 * restores; the cost is summed when either side has one.
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum = {} as Usage;
  for (const key of COUNTS) sum[key] = Math.min(a[key] + b[key], Number.MAX_SAFE_INTEGER);
  if (a.costUsd !== undefined || b.costUsd !== undefined)
    sum.costUsd = roundUsd((a.costUsd ?? 0) + (b.costUsd ?? 0));
  return sum;
}

/**
 * A dollar amount rounded to 15 significant digits, the most a double always holds exactly. Float
 * noise lives in the 16th and 17th digits, so sums of prices print as people write them (0.00017, not
 * 0.00016999999999999999; 10000.3, not 10000.300000000001) at every size, and rounding at each sum
 * keeps the error from piling up over a long session. An absolute grid (1e-12 dollars) would not do:
 * past about $9,000 a trillionth of a dollar is finer than a double can hold, and the noise comes back.
 */
export function roundUsd(amount: number): number {
  return Number(amount.toPrecision(15));
}

/** All tokens the model read and wrote. */
export function totalTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
}
