/**
 * The options of one model turn (`streamTurn`): how to reach the model, and how hard to try.
 *
 * @module
 */

import type { RetryOptions } from "../http/retry-policy.ts";
import type { CompatOptions } from "../providers/provider.ts";
import type { ProviderName } from "../providers/registry.ts";
import type { TurnEvent } from "../types.ts";
import type { PriceTable } from "../usage/prices.ts";

/** How to reach the model, and how hard to try. */
export interface TurnOptions {
  /** `"anthropic/claude-sonnet-5-5"`, `"openai/gpt-5.5"`, or a bare model id with `provider`. */
  model: string;
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
  /** Aborting it ends the turn at once with stopReason `aborted` and code ABORTED. */
  signal?: AbortSignal | undefined;
  retry?: RetryOptions;
  /** Total time one attempt may take, headers and body (default 10 minutes). */
  timeoutMs?: number;
  /** Longest silence while waiting for headers or between chunks (default 60 s). */
  idleTimeoutMs?: number;
  /** Prices that extend or override the built-in table. */
  prices?: PriceTable;
  compat?: CompatOptions;
  /**
   * Receives every event as it happens, instead of the iterator (which then yields nothing). Cheaper
   * when the caller forwards events anyway; a throw from it is not caught.
   */
  onEvent?: (event: TurnEvent) => void;
}
