/**
 * Checks an agent's configuration before anything is sent, so a mistake is a ConfigError naming the
 * option, not a provider's 400 or a failure deep in the loop.
 *
 * @module
 */

import { invalidOption } from "../config/option-checks.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import { checkModelParameters, missingApiKey } from "../stream/check-turn.ts";
import type { ProviderId } from "../types.ts";
import { findPrice, type PriceTable } from "../usage/prices.ts";
import type { AgentConfig } from "./agent-options.ts";

/**
 * Returns the first problem with `config` for `model` (a bare model id) of `provider`, or undefined:
 * what depends on the provider (the model parameters in its range; the option table checked every type
 * and provider-free range before) — everything but the API key, so a
 * session can be checked when it is created, before it is known whether it will ever send. A
 * `budget.maxCostUsd` needs the model's price: from `providerPrices` (the provider's own table) or
 * the caller's `prices`.
 */
export function checkSettings(
  config: AgentConfig,
  provider: ProviderId,
  model: string,
  providerPrices: PriceTable = {},
): ConfigError | undefined {
  return (
    checkModelParameters(config, provider) ??
    (config.budget?.maxCostUsd === undefined
      ? undefined
      : missingPrice("budget.maxCostUsd", model, config, providerPrices))
  );
}

/**
 * The ConfigError at `path` (a cost limit) when `model` has no price, neither in `providerPrices` (the
 * provider's own table) nor in the caller's `prices`; undefined when it has one.
 */
export function missingPrice(
  path: string,
  model: string,
  config: Pick<AgentConfig, "prices">,
  providerPrices: PriceTable,
): ConfigError | undefined {
  const prices = config.prices ? { ...providerPrices, ...config.prices } : providerPrices;
  return findPrice(model, prices) === undefined
    ? invalidOption(`${path} needs a price for model "${model}"; add it with the prices option`, path)
    : undefined;
}

/**
 * {@link checkSettings}, then the API key: a request to a provider's public endpoint needs one, unless
 * a `baseURL`, credential `headers` or a custom `fetch` is given (see `missingApiKey`).
 */
export function checkConfig(
  config: AgentConfig,
  provider: ProviderId,
  model: string,
  providerPrices: PriceTable = {},
): ConfigError | undefined {
  return checkSettings(config, provider, model, providerPrices) ?? missingApiKey(config, provider);
}
