/**
 * Wisp: a web-standards agent SDK. This entry point lists every public export by name.
 *
 * @example
 * ```ts
 * import { streamTurn } from "wisp";
 * const turn = streamTurn({ messages }, { model: "anthropic/claude-sonnet-4-5", apiKey });
 * for await (const event of turn) if (event.type === "text-delta") console.log(event.delta);
 * ```
 *
 * @module
 */

export type { ProviderFailure, ThrownContext } from "./errors/classify.ts";
export {
  classifyProviderFailure,
  classifyThrown,
  isRetryableCode,
  retryAfterFromHeaders,
} from "./errors/classify.ts";
export { isNetworkFailure } from "./errors/network-failure.ts";
export { parseRetryDelay } from "./errors/retry-delay.ts";
export type { ErrorCode, ErrorTag, SdkErrorFields, SerializedSdkError } from "./errors/sdk-error.ts";
export {
  AbortError,
  BudgetError,
  ConfigError,
  HookError,
  isSdkError,
  ParseError,
  ProviderError,
  RequestError,
  SdkError,
  sdkErrorFromJSON,
  ToolError,
} from "./errors/sdk-error.ts";
export type { RetryOptions } from "./http/retry-policy.ts";
export { DEFAULT_RETRY } from "./http/retry-policy.ts";
export type { CompatOptions } from "./providers/provider.ts";
export type { ProviderName } from "./providers/registry.ts";
export { resolveModel } from "./providers/registry.ts";
export type { TurnOptions, TurnStream } from "./stream/stream-turn.ts";
export { streamTurn } from "./stream/stream-turn.ts";
export type {
  AssistantContentPart,
  AssistantMessage,
  ContentPart,
  ImagePart,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  ProviderId,
  ProviderPart,
  RedactedThinkingPart,
  StopReason,
  TextPart,
  ThinkingLevel,
  ThinkingPart,
  ToolCallPart,
  ToolResultMessage,
  ToolResultPart,
  ToolSpec,
  TurnEvent,
  Usage,
  UserContentPart,
  UserMessage,
} from "./types.ts";
export type { ModelPrice, PriceTable } from "./usage/prices.ts";
export { costOf, DEFAULT_PRICES, findPrice } from "./usage/prices.ts";
export { addUsage, emptyUsage, totalTokens } from "./usage/usage.ts";
