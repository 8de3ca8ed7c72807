/**
 * Checks an agent's configuration before anything is sent, so a mistake is a ConfigError naming the
 * option, not a provider's 400 or a failure deep in the loop.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { UserContentPart } from "../types.ts";
import { DEFAULT_PRICES, findPrice } from "../usage/prices.ts";
import type { AgentConfig } from "./agent-options.ts";

function invalid(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path });
}

function positiveInteger(
  value: number | undefined,
  path: string,
  allowZero = false,
): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && (value > 0 || (allowZero && value === 0))) return undefined;
  return invalid(`${path} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${value}`, path);
}

function nonNegative(value: number | undefined, path: string): ConfigError | undefined {
  if (value === undefined || (typeof value === "number" && value >= 0)) return undefined;
  return invalid(`${path} must be a number ≥ 0, got ${value}`, path);
}

function checkTools(config: AgentConfig): ConfigError | undefined {
  const seen = new Set<string>();
  for (const [index, tool] of (config.tools ?? []).entries()) {
    if (
      typeof tool?.name !== "string" ||
      typeof tool.execute !== "function" ||
      typeof tool.inputSchema !== "object"
    ) {
      return invalid("Each tool needs a name, an inputSchema and execute (use defineTool)", `tools.${index}`);
    }
    if (seen.has(tool.name)) return invalid(`Two tools are named "${tool.name}"`, `tools.${index}.name`);
    seen.add(tool.name);
  }
  return undefined;
}

/** Returns the first problem with `config` for `model` (a bare model id), or undefined. */
export function checkConfig(config: AgentConfig, model: string): ConfigError | undefined {
  const problem =
    checkTools(config) ??
    positiveInteger(config.maxTurns, "maxTurns") ??
    positiveInteger(config.maxTokens, "maxTokens") ??
    positiveInteger(config.maxStopBlocks, "maxStopBlocks", true) ??
    positiveInteger(config.toolTimeoutMs, "toolTimeoutMs") ??
    nonNegative(config.temperature, "temperature") ??
    nonNegative(config.budget?.maxTokens, "budget.maxTokens") ??
    nonNegative(config.budget?.maxCostUsd, "budget.maxCostUsd") ??
    positiveInteger(config.budget?.maxTurns, "budget.maxTurns");
  if (problem !== undefined) return problem;
  if (config.budget?.maxCostUsd !== undefined) {
    const prices = config.prices ? { ...DEFAULT_PRICES, ...config.prices } : DEFAULT_PRICES;
    if (findPrice(model, prices) === undefined) {
      return invalid(
        `budget.maxCostUsd needs a price for model "${model}"; add it with the prices option`,
        "budget.maxCostUsd",
      );
    }
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
