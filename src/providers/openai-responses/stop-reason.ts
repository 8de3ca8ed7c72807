/**
 * How a Responses stream ended → StopReason: `response.completed` (tool use when it called a
 * function), or `response.incomplete` with its `incomplete_details.reason`.
 *
 * @module
 */

import type { StopReason } from "../../types.ts";

const INCOMPLETE: Record<string, StopReason> = {
  max_output_tokens: "maxTokens",
  content_filter: "refusal",
};

/** The stop reason of a finished response; `incompleteReason` is set for `response.incomplete`. */
export function mapResponsesStopReason(
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
  refused: boolean,
): StopReason {
  if (incompleteReason !== undefined) return INCOMPLETE[incompleteReason] ?? "maxTokens";
  if (refused) return "refusal";
  return hasToolCalls ? "toolUse" : "complete";
}
