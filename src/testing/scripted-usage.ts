/**
 * The token counts the scripted model reports for a turn: the script's own, or an estimate.
 *
 * @module
 */

import type { ScriptedTurn } from "./script.ts";
import { estimateTokens } from "./wire-event.ts";

/** Token counts for a scripted turn. */
export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of `output` spent thinking (reported apart only by APIs that do: Gemini). */
  reasoning: number;
}

/** The usage of `turn`: scripted figures where given, else estimates from the content length. */
export function scriptedUsage(turn: ScriptedTurn): ScriptedUsage {
  let characters = 0;
  for (const part of turn.content ?? []) {
    if (part.type === "text" || part.type === "thinking") {
      characters += Array.isArray(part.text) ? part.text.join("").length : part.text.length;
    } else if (part.type === "tool_call") {
      characters += typeof part.args === "string" ? part.args.length : JSON.stringify(part.args).length;
    }
  }
  return {
    input: turn.usage?.input ?? 25,
    output: turn.usage?.output ?? estimateTokens("x".repeat(characters)),
    cacheRead: turn.usage?.cacheRead ?? 0,
    cacheWrite: turn.usage?.cacheWrite ?? 0,
    reasoning: turn.usage?.reasoning ?? 0,
  };
}
