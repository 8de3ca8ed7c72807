/**
 * Responses usage → Usage. `input_tokens` includes cached tokens; `output_tokens` includes reasoning.
 *
 * @module
 */

import type { Usage } from "../../types.ts";
import { type EventData, numberAt, objectAt } from "../parse-event-data.ts";

/** Reads a `response.usage` object. */
export function readResponsesUsage(usage: EventData): Usage {
  const cached = numberAt(objectAt(usage, "input_tokens_details"), "cached_tokens");
  return {
    input: Math.max(0, numberAt(usage, "input_tokens") - cached),
    output: numberAt(usage, "output_tokens"),
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: numberAt(objectAt(usage, "output_tokens_details"), "reasoning_tokens"),
  };
}
