/**
 * Anthropic `stop_reason` → unified StopReason.
 *
 * @module
 */

import type { StopReason } from "../../types.ts";

const MAP: Record<string, StopReason> = {
  end_turn: "complete",
  stop_sequence: "complete",
  max_tokens: "maxTokens",
  model_context_window_exceeded: "maxTokens",
  tool_use: "toolUse",
  pause_turn: "pauseTurn",
  refusal: "refusal",
};

/** The unified stop reason for an Anthropic one; unknown values count as `complete`. */
export function mapAnthropicStopReason(raw: string): StopReason {
  return MAP[raw] ?? "complete";
}
