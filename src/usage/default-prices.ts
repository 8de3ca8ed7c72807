/**
 * Every provider's built-in prices in one table, for callers who want them all. Wisp itself does not
 * use it: each provider carries its own table (see `Provider.prices`), so a program downloads only the
 * prices of the providers it talks to.
 *
 * @module
 */

import { ANTHROPIC_PRICES } from "./anthropic-prices.ts";
import { GEMINI_PRICES } from "./gemini-prices.ts";
import { OPENAI_PRICES } from "./openai-prices.ts";
import type { PriceTable } from "./prices.ts";

/** The built-in price table: every provider's. */
export const DEFAULT_PRICES: PriceTable = { ...ANTHROPIC_PRICES, ...OPENAI_PRICES, ...GEMINI_PRICES };
