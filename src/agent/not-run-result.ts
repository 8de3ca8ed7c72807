/**
 * The result a tool call gets when it is not run (the run ended first), so no call in the
 * conversation is ever left without one.
 *
 * @module
 */

import type { ToolCallPart, ToolResultPart } from "../types.ts";

/** A result for a call that was not run, saying why. */
export function notRunResult(toolCall: ToolCallPart, why: string): ToolResultPart {
  return {
    type: "tool_result",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    output: `Tool call not run: ${why}`,
    isError: true,
  };
}
