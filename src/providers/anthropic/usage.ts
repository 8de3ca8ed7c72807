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
  // Server-side compaction's own sampling is billed but left out of the top-level counts: it is in
  // `iterations`, beside the figures it reports them with.
  const compaction = { input: 0, output: 0 };
  if (Array.isArray(usage.iterations))
    for (const iteration of usage.iterations as EventData[]) {
      if (iteration?.type !== "compaction") continue;
      if ("input_tokens" in usage) compaction.input += numberAt(iteration, "input_tokens");
      if ("output_tokens" in usage) compaction.output += numberAt(iteration, "output_tokens");
    }
  return {
    input: pick("input_tokens", previous.input) + compaction.input,
    output: pick("output_tokens", previous.output) + compaction.output,
    cacheRead: pick("cache_read_input_tokens", previous.cacheRead),
    cacheWrite: pick("cache_creation_input_tokens", previous.cacheWrite),
    reasoning: thinking !== undefined ? numberAt(thinking, "thinking_tokens") : previous.reasoning,
  };
}
