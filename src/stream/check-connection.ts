/**
 * The types of the options that say how to reach a model (`provider`, `apiKey`, `baseURL`, `headers`,
 * `fetch`, `signal`, `retry`, timeouts, `prices`, `compat`), checked before any of them is read.
 * Plain JavaScript can pass anything: a number as `apiKey`, a string as `headers`, a typo inside
 * `retry`. Each is a ConfigError naming the option, never a TypeError, a RequestError from a malformed
 * URL, or an option silently ignored.
 *
 * @module
 */

import {
  invalidOption,
  nestedOptions,
  notDuration,
  notFunctionOption,
  notObjectOption,
  notSignalOption,
  notStringOption,
} from "../config/option-checks.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import type { RetryOptions } from "../http/retry-policy.ts";
import type { CompatOptions } from "../providers/provider.ts";

/** Every option of `retry`. */
export const RETRY_OPTION_KEYS = [
  "maxRetries",
  "initialDelayMs",
  "maxDelayMs",
  "maxRetryAfterMs",
] as const satisfies ReadonlyArray<keyof RetryOptions>;

/** Every option of `compat`. */
export const COMPAT_OPTION_KEYS = ["maxTokensField", "includeUsage"] as const satisfies ReadonlyArray<
  keyof CompatOptions
>;

// Adding an option to RetryOptions or CompatOptions without listing it above fails to compile here.
const _everyNestedOption: [
  [Exclude<keyof RetryOptions, (typeof RETRY_OPTION_KEYS)[number]>] extends [never] ? true : never,
  [Exclude<keyof CompatOptions, (typeof COMPAT_OPTION_KEYS)[number]>] extends [never] ? true : never,
] = [true, true];
void _everyNestedOption;

/** The options {@link checkConnection} looks at; any of them may be absent. */
export interface ConnectionOptions {
  provider?: unknown;
  apiKey?: unknown;
  baseURL?: unknown;
  headers?: unknown;
  fetch?: unknown;
  signal?: unknown;
  retry?: unknown;
  timeoutMs?: unknown;
  idleTimeoutMs?: unknown;
  prices?: unknown;
  compat?: unknown;
}

/**
 * `baseURL` is an absolute http(s) URL, or a path on the page's own origin (`/api/anthropic`, for a
 * same-origin proxy in a browser). `localhost:11434/v1` — a scheme left out — is refused.
 */
function checkBaseURL(value: unknown): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && value.startsWith("/") && !value.startsWith("//")) return undefined;
  let protocol: string | undefined;
  try {
    protocol = typeof value === "string" ? new URL(value).protocol : undefined;
  } catch {
    protocol = undefined;
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
  if (problem !== undefined || value === undefined) return problem;
  for (const [name, header] of Object.entries(value as object)) {
    if (typeof header !== "string") {
      return invalidOption(`headers["${name}"] must be a string, got ${typeof header}`, `headers.${name}`);
    }
  }
  return undefined;
}

function checkRetry(value: unknown): ConfigError | undefined {
  const problem = nestedOptions(value, "retry", RETRY_OPTION_KEYS);
  if (problem !== undefined || value === undefined) return problem;
  const retry = value as Record<string, unknown>;
  for (const key of RETRY_OPTION_KEYS) {
    const found = notDuration(retry[key], `retry.${key}`);
    if (found !== undefined) return found;
  }
  if (retry.maxRetries === undefined || Number.isInteger(retry.maxRetries)) return undefined;
  return invalidOption(
    `retry.maxRetries must be a whole number, got ${showValue(retry.maxRetries)}`,
    "retry.maxRetries",
  );
}

function checkCompat(value: unknown): ConfigError | undefined {
  const problem = nestedOptions(value, "compat", COMPAT_OPTION_KEYS);
  if (problem !== undefined || value === undefined) return problem;
  const { maxTokensField: field, includeUsage: usage } = value as Record<string, unknown>;
  if (field !== undefined && field !== "max_tokens" && field !== "max_completion_tokens") {
    return invalidOption(
      `compat.maxTokensField must be "max_tokens" or "max_completion_tokens", got ${showValue(field)}`,
      "compat.maxTokensField",
    );
  }
  if (usage === undefined || typeof usage === "boolean") return undefined;
  return invalidOption(
    `compat.includeUsage must be true or false, got ${showValue(usage)}`,
    "compat.includeUsage",
  );
}

/**
 * The first option of `options` whose type is wrong, or undefined. `apiKey` may be `undefined` (an
 * unset environment variable): whether a key is needed is decided later, by the endpoint.
 */
export function checkConnection(options: ConnectionOptions): ConfigError | undefined {
  return (
    notStringOption(options.provider, "provider") ??
    notStringOption(options.apiKey, "apiKey") ??
    checkBaseURL(options.baseURL) ??
    checkHeaders(options.headers) ??
    notFunctionOption(options.fetch, "fetch") ??
    notSignalOption(options.signal, "signal") ??
    checkRetry(options.retry) ??
    notDuration(options.timeoutMs, "timeoutMs") ??
    notDuration(options.idleTimeoutMs, "idleTimeoutMs") ??
    notObjectOption(options.prices, "prices") ??
    checkCompat(options.compat)
  );
}
