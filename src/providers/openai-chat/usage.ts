/**
 * Chat Completions usage → normalized Usage, across the shapes servers send: OpenAI's
 * `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`, OpenRouter's `cost`.
 * `prompt_tokens` includes cached tokens, so they are subtracted from `input`.
 *
 * @module
 */

import type { Usage } from "../../types.ts";
import { type EventData, numberAt, objectAt } from "../parse-event-data.ts";

/** Reads a Chat Completions usage object. */
export function readOpenAIChatUsage(usage: EventData): Usage {
  const prompt = numberAt(usage, "prompt_tokens");
  const details = objectAt(usage, "prompt_tokens_details");
  const cached =
    details !== undefined ? numberAt(details, "cached_tokens") : numberAt(usage, "prompt_cache_hit_tokens");
  const result: Usage = {
    input: Math.max(0, prompt - cached),
    output: numberAt(usage, "completion_tokens"),
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: numberAt(objectAt(usage, "completion_tokens_details"), "reasoning_tokens"),
  };
  if (typeof usage.cost === "number") result.costUsd = usage.cost;
  return result;
}
