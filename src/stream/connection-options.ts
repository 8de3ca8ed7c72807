/**
 * The options that say how to reach a model (`model`, `provider`, `apiKey`, `baseURL`, `headers`,
 * `fetch`, `retry`, timeouts, `prices`, `compat`): what an agent passes to every turn, in one table.
 * Plain JavaScript can pass anything: a number as `apiKey`, a string as `headers`, a typo inside
 * `retry`. Each is a ConfigError naming the option, never a TypeError, a RequestError from a malformed
 * URL, or an option silently ignored.
 *
 * @module
 */

import {
  invalidOption,
  notDuration,
  notFunctionOption,
  notObjectOption,
  notStringOption,
  oneOfOption,
} from "../config/option-checks.ts";
import { nestedTable, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import type { RetryOptions } from "../http/retry-policy.ts";
import type { ModelOption } from "../providers/model-name.ts";
import type { CompatOptions } from "../providers/provider.ts";
import type { ProviderName } from "../providers/registry.ts";
import type { PriceTable } from "../usage/prices.ts";

/** How to reach the model, and how hard to try: the options every turn of an agent shares. */
export interface ConnectionOptions {
  /**
   * `"anthropic/claude-sonnet-5-5"`, `"openai/gpt-5.5"`: a literal's provider prefix is checked at
   * compile time; a string from elsewhere (or a bare model id with `provider`) goes through
   * `uncheckedModel`.
   */
  model: ModelOption;
  /**
   * The provider, when `model` is a bare model id (`provider: "openai", model: uncheckedModel("gpt-5.5")`); `openai` means
   * Chat Completions, `gemini` Google's API. Default: the prefix of `model`.
   */
  provider?: ProviderName;
  /**
   * The provider key; `undefined` (an unset environment variable) is the same as leaving it out.
   * Required for a provider's public endpoint: without it the turn ends, before any request, with a
   * ConfigError at `apiKey` naming the usual variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`,
   * `GEMINI_API_KEY`). Not required when `baseURL` is given (a local server such as Ollama needs
   * none), when `headers` carry credentials (`authorization`, `x-api-key`, `x-goog-api-key`,
   * `api-key`, any case), or when `fetch` is given (it may add credentials itself: a proxy, the
   * scripted model).
   */
  apiKey?: string | undefined;
  /** Defaults to the provider's public endpoint. For OpenAI-compatible servers include `/v1`. */
  baseURL?: string;
  /** Extra request headers (they override Wisp's own). */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one (a proxy, a test double, the scripted model). */
  fetch?: typeof fetch;
  /** Retries of failed requests, with exponential backoff. Default: `DEFAULT_RETRY` (2 retries). */
  retry?: RetryOptions;
  /** Total time one attempt may take, headers and body (default 10 minutes). */
  timeoutMs?: number;
  /** Longest silence while waiting for headers or between chunks (default 60 s). */
  idleTimeoutMs?: number;
  /** Prices that extend or override the built-in table. */
  prices?: PriceTable;
  /** Switches for servers whose wire format deviates from the provider's (OpenAI-compatible servers). */
  compat?: CompatOptions;
}

/**
 * `baseURL` is an absolute http(s) URL, or a path on the page's own origin (`/api/anthropic`, for a
 * same-origin proxy in a browser). `localhost:11434/v1` — a scheme left out — is refused.
 */
function checkBaseURL(value: unknown): ConfigError | undefined {
  // (An option left out never reaches its check: checkOptions skips it.)
  if (typeof value === "string" && value.startsWith("/") && !value.startsWith("//")) return undefined;
  let protocol: string | undefined;
  try {
    if (typeof value === "string") protocol = new URL(value).protocol;
  } catch {
    // Not a URL: refused below.
  }
  if (protocol === "https:" || protocol === "http:") return undefined;
  const hint =
    typeof value === "string" && /^[\w.-]+:\d/.test(value) ? ` — did you mean "http://${value}"?` : "";
  return invalidOption(
    `baseURL must be an http(s) URL such as "http://localhost:11434/v1", got ${showValue(value)}${hint}`,
    "baseURL",
  );
}

/** `headers` is an object of strings (values are not shown: they may be credentials). */
function checkHeaders(value: unknown): ConfigError | undefined {
  const problem = notObjectOption(value, "headers");
  if (problem !== undefined) return problem;
  for (const [name, header] of Object.entries(value as object)) {
    if (typeof header !== "string") {
      return invalidOption(`headers["${name}"] must be a string, got ${typeof header}`, `headers.${name}`);
    }
  }
  return undefined;
}

/**
 * A ConfigError when `model` is not a non-empty string: the first thing an entry point checks after
 * unknown keys (its row opens every option table that has it), so a call without a model says so.
 */
export function checkModelOption(model: unknown): ConfigError | undefined {
  if (typeof model === "string" && model.trim() !== "") return undefined;
  return invalidOption(
    `model is required: a string such as "anthropic/claude-sonnet-4-5" or "openai/gpt-5", got ${model === "" ? "an empty string" : typeof model}`,
    "model",
  );
}

/** The options of `retry`. */
export const RETRY_OPTIONS: OptionTable<RetryOptions> = {
  maxRetries: (value, path) =>
    notDuration(value, path) ??
    (Number.isInteger(value)
      ? undefined
      : invalidOption(`${path} must be a whole number, got ${showValue(value)}`, path)),
  initialDelayMs: notDuration,
  maxDelayMs: notDuration,
  maxRetryAfterMs: notDuration,
};

/** The options of `compat`. */
export const COMPAT_OPTIONS: OptionTable<CompatOptions> = {
  maxTokensField: oneOfOption(["max_tokens", "max_completion_tokens"]),
  includeUsage: oneOfOption([true, false]),
};

/** The connection options, in the order they are checked. */
export const CONNECTION_OPTIONS: OptionTable<ConnectionOptions> = {
  model: { required: true, check: checkModelOption },
  provider: notStringOption,
  apiKey: notStringOption,
  baseURL: checkBaseURL,
  headers: checkHeaders,
  fetch: notFunctionOption,
  retry: nestedTable(RETRY_OPTIONS),
  timeoutMs: notDuration,
  idleTimeoutMs: notDuration,
  prices: notObjectOption,
  compat: nestedTable(COMPAT_OPTIONS),
};
