/**
 * Model prices in USD per million tokens, and the cost of a usage record. The table holds list prices
 * of current and recent Anthropic and OpenAI models, as published up to November 2026 (Anthropic's
 * model pages; OpenAI's pricing page). Cache writes are priced at the 5-minute rate; Haiku 5.5 at its
 * band for prompts up to 100K tokens. Models whose price was not published are left out rather than
 * guessed. Callers override or extend the table with the `prices` option. Dated model ids (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) match
 * their undated entry.
 *
 * @module
 */

import type { Usage } from "../types.ts";
import { roundUsd } from "./usage.ts";

/** USD per million tokens. `cacheWrite` defaults to `input`, `cacheRead` to `input`. */
export interface ModelPrice {
  /** USD per million uncached prompt tokens. */
  input: number;
  /** USD per million generated tokens (reasoning included). */
  output: number;
  /** USD per million prompt tokens read from the cache. Default: the `input` price. */
  cacheRead?: number;
  /** USD per million prompt tokens written to the cache. Default: the `input` price. */
  cacheWrite?: number;
}

/** Prices keyed by model id (without provider prefix). */
export type PriceTable = Record<string, ModelPrice>;

const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The price of `model` in `table`, trying the exact id first and then the id without its date. */
export function findPrice(model: string, table: PriceTable): ModelPrice | undefined {
  return table[model] ?? table[model.replace(DATE_SUFFIX, "")];
}

/** The USD cost of `usage` at `price`. */
export function costOf(usage: Usage, price: ModelPrice): number {
  // Prices are per million tokens; dividing once, then rounding, keeps the result free of float noise.
  return roundUsd(
    (usage.input * price.input +
      usage.output * price.output +
      usage.cacheRead * (price.cacheRead ?? price.input) +
      usage.cacheWrite * (price.cacheWrite ?? price.input)) /
      1_000_000,
  );
}
