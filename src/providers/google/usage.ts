/**
 * Gemini `usageMetadata` → Usage. `promptTokenCount` includes cached tokens; thoughts are counted
 * apart from `candidatesTokenCount`, and Usage's `output` includes them. Every chunk carries a full
 * snapshot (not monotonic), so the last one wins; Vertex may send one with no counts at all.
 *
 * @module
 */

import type { Usage } from "../../types.ts";
import { type EventData, numberAt } from "../parse-event-data.ts";

/** Reads a `usageMetadata` object, or undefined when it holds no token counts. */
export function readGeminiUsage(usage: EventData): Usage | undefined {
  if (typeof usage.promptTokenCount !== "number" && typeof usage.candidatesTokenCount !== "number")
    return undefined;
  const cached = numberAt(usage, "cachedContentTokenCount");
  const thoughts = numberAt(usage, "thoughtsTokenCount");
  return {
    input: Math.max(0, numberAt(usage, "promptTokenCount") - cached),
    output: numberAt(usage, "candidatesTokenCount") + thoughts,
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: thoughts,
  };
}
