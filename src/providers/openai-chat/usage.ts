/**
 * Chat Completions usage → normalized Usage, across the shapes servers send: OpenAI's
 * `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`, OpenRouter's `cost`.
 * `prompt_tokens` includes cached tokens, so they are subtracted from `input`.
 *
 * Reasoning is part of `output`. OpenAI counts `reasoning_tokens` inside `completion_tokens`; xAI
 * counts them beside it (`completion_tokens: 1`, `reasoning_tokens: 290`, `total_tokens: 303` with
 * 12 prompt tokens). `total_tokens` tells the two apart: when it is prompt + completion + reasoning,
 * the reasoning is added to `output`.
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
  const completion = numberAt(usage, "completion_tokens");
  const reasoning = numberAt(objectAt(usage, "completion_tokens_details"), "reasoning_tokens");
  const apart = reasoning > 0 && numberAt(usage, "total_tokens") === prompt + completion + reasoning;
  const result: Usage = {
    input: Math.max(0, prompt - cached),
    output: apart ? completion + reasoning : completion,
    cacheRead: cached,
    cacheWrite: 0,
    reasoning,
  };
  if (typeof usage.cost === "number") result.costUsd = usage.cost;
  return result;
}
