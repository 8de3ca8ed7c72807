/**
 * Gemini `finishReason` → StopReason. `STOP` is sent even when the model called a function, so tool
 * use is read from the parts. Blocking reasons are refusals; `MALFORMED_FUNCTION_CALL` is not a stop
 * reason at all but a failed turn (see the stream handler).
 *
 * @module
 */

import type { StopReason } from "../../types.ts";

const MAP: Record<string, StopReason> = {
  STOP: "complete",
  MAX_TOKENS: "maxTokens",
  SAFETY: "refusal",
  RECITATION: "refusal",
  LANGUAGE: "refusal",
  BLOCKLIST: "refusal",
  PROHIBITED_CONTENT: "refusal",
  SPII: "refusal",
  IMAGE_SAFETY: "refusal",
};

/** The stop reason for a finish reason (or a prompt `blockReason`). */
export function mapGeminiStopReason(
  raw: string | undefined,
  hasToolCalls: boolean,
  blocked: boolean,
): StopReason {
  if (blocked) return "refusal";
  const mapped = raw === undefined ? "complete" : (MAP[raw] ?? "complete");
  return mapped === "complete" && hasToolCalls ? "toolUse" : mapped;
}
