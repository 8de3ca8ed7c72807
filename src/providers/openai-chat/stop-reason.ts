/**
 * Chat Completions `finish_reason` → unified StopReason. Tool use is decided by whether tool calls
 * arrived, not by `finish_reason`: servers (and gpt-4o) have sent `stop` after tool calls.
 *
 * @module
 */

import type { StopReason } from "../../types.ts";

const MAP: Record<string, StopReason> = {
  stop: "complete",
  length: "maxTokens",
  content_filter: "refusal",
  tool_calls: "toolUse",
  function_call: "toolUse",
};

/** The unified stop reason, given the raw one and whether any tool call arrived. */
export function mapOpenAIChatStopReason(raw: string | undefined, hasToolCalls: boolean): StopReason {
  if (hasToolCalls) return "toolUse";
  const mapped = raw === undefined ? "complete" : (MAP[raw] ?? "complete");
  return mapped === "toolUse" ? "complete" : mapped;
}
