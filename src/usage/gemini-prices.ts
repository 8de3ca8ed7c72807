/**
 * Gemini list prices in USD per million tokens (see \`usage/prices.ts\` for sources and rules). Each
 * provider's table travels with that provider's code, so a program pays only for the prices it uses.
 *
 * @module
 */

import type { PriceTable } from "./prices.ts";

/** Gemini model prices. */
export const GEMINI_PRICES: PriceTable = {
  // Gemini, prompts up to 200k tokens (longer prompts cost more: pass your own `prices`).
  "gemini-3-pro-preview": { input: 2, output: 12, cacheRead: 0.2 },
  "gemini-2.5-pro": { input: 1.25, output: 10, cacheRead: 0.125 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cacheRead: 0.03 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cacheRead: 0.01 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4, cacheRead: 0.025 },
};
