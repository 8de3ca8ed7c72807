/**
 * Checks a turn's request and options before anything is sent, so every mistake a caller can make —
 * from TypeScript or from plain JavaScript — is a ConfigError naming the option, never a TypeError,
 * a provider's 400, or an API key sent somewhere it should not go.
 *
 * @module
 */

import { didYouMean } from "../config/did-you-mean.ts";
import { checkOptions } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import { notAnObject } from "../config/unknown-option.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { ModelRequest, ProviderId, ThinkingLevel } from "../types.ts";
import { TURN_OPTIONS, type TurnOptions } from "./turn-options.ts";

/** The thinking levels, as `thinking` accepts them. */
const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high"];

/** The temperature each API accepts. */
const TEMPERATURE_RANGE: Record<ProviderId, readonly [number, number]> = {
  anthropic: [0, 1],
  "openai-chat": [0, 2],
  "openai-responses": [0, 2],
  google: [0, 2],
};

/** Where each provider's key usually lives, for the message that says it is missing. */
const KEY_VARIABLE: Record<ProviderId, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  "openai-chat": "OPENAI_API_KEY",
  "openai-responses": "OPENAI_API_KEY",
  google: "GEMINI_API_KEY",
};

const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "x-goog-api-key", "api-key"];

function invalid(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path });
}

/**
 * A ConfigError when the request would go to the provider's public endpoint without a key. No key is
 * needed when a `baseURL` is given (a local server such as Ollama), when `headers` already carry
 * credentials, or when a custom `fetch` is given (it may add them itself, like a proxy or a test double).
 */
export function missingApiKey(options: TurnOptions, provider: ProviderId): ConfigError | undefined {
  if (typeof options.apiKey === "string" && options.apiKey !== "") return undefined;
  if (options.baseURL !== undefined || options.fetch !== undefined) return undefined;
  const headers = Object.keys(options.headers ?? {}).map((name) => name.toLowerCase());
  if (headers.some((name) => CREDENTIAL_HEADERS.includes(name))) return undefined;
  return invalid(
    `apiKey is missing for ${provider}: pass apiKey (for example from ${KEY_VARIABLE[provider]}), or a baseURL for a server that needs none`,
    "apiKey",
  );
}

/** The first problem with the model parameters of a turn for `provider`, or undefined. */
export function checkModelParameters(
  parameters: { thinking?: unknown; temperature?: unknown; maxTokens?: unknown },
  provider: ProviderId,
): ConfigError | undefined {
  const { thinking, temperature, maxTokens } = parameters;
  if (thinking !== undefined && !THINKING_LEVELS.includes(thinking as ThinkingLevel)) {
    const guess = typeof thinking === "string" ? didYouMean(thinking, THINKING_LEVELS) : undefined;
    return invalid(
      `thinking must be one of ${THINKING_LEVELS.join(", ")}, got ${showValue(thinking)}${guess ? ` — did you mean "${guess}"?` : ""}`,
      "thinking",
    );
  }
  if (temperature !== undefined) {
    const [low, high] = TEMPERATURE_RANGE[provider];
    if (typeof temperature !== "number" || !(temperature >= low && temperature <= high)) {
      return invalid(
        `temperature for ${provider} must be a number from ${low} to ${high}, got ${showValue(temperature)}`,
        "temperature",
      );
    }
  }
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && (maxTokens as number) > 0)) {
    return invalid(`maxTokens must be a positive integer, got ${showValue(maxTokens)}`, "maxTokens");
  }
  return undefined;
}

/**
 * The first problem with a turn's options (their table: unknown keys, types) and its request before the
 * model is resolved, or undefined.
 */
export function checkTurnInput(request: unknown, options: unknown): ConfigError | undefined {
  const problem =
    notAnObject(options, "streamTurn's options") ??
    checkOptions(TURN_OPTIONS, options as object) ??
    notAnObject(request, "streamTurn's request");
  if (problem !== undefined) return problem;
  const { messages } = request as ModelRequest;
  return Array.isArray(messages) ? undefined : invalid("messages must be an array of messages", "messages");
}
