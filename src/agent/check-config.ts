/**
 * Checks an agent's configuration before anything is sent, so a mistake is a ConfigError naming the
 * option, not a provider's 400 or a failure deep in the loop.
 *
 * @module
 */

import { showValue } from "../config/show-value.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { checkModelParameters, missingApiKey } from "../stream/check-turn.ts";
import type { ProviderId, UserContentPart } from "../types.ts";
import { findPrice, type PriceTable } from "../usage/prices.ts";
import type { AgentConfig } from "./agent-options.ts";
import { checkTools } from "./check-option-types.ts";

function invalid(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path });
}

function positiveInteger(value: unknown, path: string, allowZero = false): ConfigError | undefined {
  if (value === undefined) return undefined;
  // A safe integer: what a stored session holds (its restore refuses any other number).
  if (typeof value === "number" && Number.isSafeInteger(value) && (value > 0 || (allowZero && value === 0)))
    return undefined;
  return invalid(
    `${path} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${showValue(value)}`,
    path,
  );
}

function nonNegative(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || (typeof value === "number" && value >= 0)) return undefined;
  return invalid(`${path} must be a number ≥ 0, got ${showValue(value)}`, path);
}

/**
 * Returns the first problem with `config` for `model` (a bare model id) of `provider`, or undefined:
 * tools, limits and model parameters in the provider's range — everything but the API key, so a
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
  const problem =
    checkTools(config.tools) ??
    checkModelParameters(config, provider) ??
    positiveInteger(config.maxTurns, "maxTurns") ??
    positiveInteger(config.maxStopBlocks, "maxStopBlocks", true) ??
    positiveInteger(config.outputRetries, "outputRetries", true) ??
    positiveInteger(config.toolTimeoutMs, "toolTimeoutMs") ??
    nonNegative(config.budget?.maxTokens, "budget.maxTokens") ??
    nonNegative(config.budget?.maxCostUsd, "budget.maxCostUsd") ??
    positiveInteger(config.budget?.maxTurns, "budget.maxTurns");
  if (problem !== undefined) return problem;
  if (config.budget?.maxCostUsd !== undefined) {
    const prices = config.prices ? { ...providerPrices, ...config.prices } : providerPrices;
    if (findPrice(model, prices) === undefined) {
      return invalid(
        `budget.maxCostUsd needs a price for model "${model}"; add it with the prices option`,
        "budget.maxCostUsd",
      );
    }
  }
  return undefined;
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

/** A ConfigError when `value` is not a user content part (`{ type: "text", text }` or an image). */
function badPart(value: unknown, path: string): ConfigError | undefined {
  const part = value as { type?: unknown; text?: unknown; data?: unknown; url?: unknown } | null;
  if (typeof part !== "object" || part === null) return invalid("expected a content part object", path);
  if (part.type === "text")
    return typeof part.text === "string" ? undefined : invalid("text must be a string", `${path}.text`);
  if (part.type === "image") {
    return typeof part.data === "string" || typeof part.url === "string"
      ? undefined
      : invalid("an image needs data (base64) or a url", path);
  }
  return invalid(`expected type "text" or "image", got ${showValue(part.type)}`, `${path}.type`);
}

/**
 * A ConfigError when `prompt` is not a string or an array of content parts, or `attachments` is not an
 * array of images — the shapes plain JavaScript can get wrong.
 */
export function checkPromptInput(prompt: unknown, attachments: unknown): ConfigError | undefined {
  if (prompt === undefined || prompt === null) {
    return invalid("prompt is required: a string, or an array of text and image parts", "prompt");
  }
  if (typeof prompt !== "string") {
    if (!Array.isArray(prompt))
      return invalid(`prompt must be a string or an array of parts, got ${typeof prompt}`, "prompt");
    for (const [index, part] of prompt.entries()) {
      const problem = badPart(part, `prompt.${index}`);
      if (problem !== undefined) return problem;
    }
  }
  if (attachments === undefined) return undefined;
  if (!Array.isArray(attachments))
    return invalid("attachments must be an array of image parts", "attachments");
  for (const [index, part] of attachments.entries()) {
    const problem =
      (part as { type?: unknown })?.type === "image"
        ? badPart(part, `attachments.${index}`)
        : invalid("expected an image part", `attachments.${index}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Returns a ConfigError when a prompt has nothing to send: no text and no image. */
export function checkPrompt(content: UserContentPart[]): ConfigError | undefined {
  const hasContent = content.some((part) =>
    part.type === "text" ? part.text.trim() !== "" : part.data !== undefined || part.url !== undefined,
  );
  return hasContent ? undefined : invalid("The prompt is empty: give it text or an image", "prompt");
}
