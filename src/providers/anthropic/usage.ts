/**
 * Anthropic usage → normalized Usage. Anthropic's `input_tokens` already excludes cached tokens.
 *
 * @module
 */

import type { Usage } from "../../types.ts";
import { type EventData, numberAt, objectAt } from "../parse-event-data.ts";

/**
 * Merges a usage object into the previous figures. Figures are cumulative: a field present in the
 * newer object replaces the older one (message_delta wins over message_start), absent ones are kept.
 */
export function mergeAnthropicUsage(previous: Usage, usage: EventData): Usage {
  const pick = (key: string, fallback: number): number => (key in usage ? numberAt(usage, key) : fallback);
  const thinking = objectAt(usage, "output_tokens_details");
  return {
    input: pick("input_tokens", previous.input),
    output: pick("output_tokens", previous.output),
    cacheRead: pick("cache_read_input_tokens", previous.cacheRead),
    cacheWrite: pick("cache_creation_input_tokens", previous.cacheWrite),
    reasoning: thinking !== undefined ? numberAt(thinking, "thinking_tokens") : previous.reasoning,
  };
}
