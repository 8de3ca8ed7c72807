/**
 * The scripted model's Gemini voice: a scripted turn as `streamGenerateContent?alt=sse` chunks, each a
 * whole GenerateContentResponse with only new parts (thought text with `thought: true`, text, whole
 * function calls with their `thoughtSignature`), a usage snapshot on every chunk and `finishReason` on
 * the last; plus Google's error bodies (google.rpc status, `RetryInfo` on a 429).
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import type { HttpFault, ScriptedTurn } from "./script.ts";
import { scriptedUsage } from "./scripted-usage.ts";
import { randomId, toPieces, type WireEvent } from "./wire-event.ts";

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** A Google error body for a status; a 429 with `retryAfter` carries it as `RetryInfo.retryDelay`. */
export function geminiErrorBody(fault: HttpFault, message: string): JsonObject {
  const details: JsonObject[] = [];
  if (fault.status === 429 && fault.retryAfter !== undefined) {
    details.push({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${fault.retryAfter}s` });
  }
  const status = fault.errorType ?? STATUS[fault.status] ?? "INTERNAL";
  return { error: { code: fault.status, message, status, ...(details.length ? { details } : {}) } };
}

/** An error sent inside the stream (a chunk holding only `error`). */
export function geminiErrorEvent(status = "INTERNAL", message = "Internal error encountered."): WireEvent {
  const code = Number(Object.entries(STATUS).find(([, name]) => name === status)?.[0] ?? 500);
  return { data: JSON.stringify({ error: { code, message, status } }) };
}

/** The one chunk Gemini sends when the model produced a function call it could not parse. */
function malformedCall(model: string, responseId: string, prompt: number): WireEvent {
  return {
    data: JSON.stringify({
      candidates: [{ content: {}, finishReason: "MALFORMED_FUNCTION_CALL" }],
      usageMetadata: { promptTokenCount: prompt, totalTokenCount: prompt },
      modelVersion: model,
      responseId,
    }),
  };
}

/** The whole chunk sequence of a scripted turn (a string `args` is Gemini's MALFORMED_FUNCTION_CALL). */
export function speakGemini(turn: ScriptedTurn, model: string): WireEvent[] {
  const responseId = randomId("", 22);
  const counts = scriptedUsage(turn);
  const prompt = counts.input + counts.cacheRead;
  const parts: JsonObject[] = [];
  for (const part of turn.content ?? []) {
    if (part.type === "text" || part.type === "thinking") {
      const pieces = toPieces(part.text);
      pieces.forEach((text, index) => {
        const piece: JsonObject = part.type === "thinking" ? { text, thought: true } : { text };
        if (part.type === "thinking" && part.signature && index === pieces.length - 1)
          piece.thoughtSignature = part.signature;
        parts.push(piece);
      });
    } else if (part.type === "tool_call") {
      // Gemini has no way to send invalid argument JSON: a call it cannot form ends the turn instead.
      if (typeof part.args === "string") return [malformedCall(model, responseId, prompt)];
      const call: JsonObject = { functionCall: { name: part.name, args: part.args } };
      if (part.signature) call.thoughtSignature = part.signature;
      parts.push(call);
    }
  }
  if (parts.length === 0) parts.push({ text: "" });
  const promptDetails = [{ modality: "TEXT", tokenCount: prompt }];
  return parts.map((part, index): WireEvent => {
    const last = index === parts.length - 1;
    const candidate: JsonObject = { content: { parts: [part], role: "model" } };
    if (last) candidate.finishReason = turn.stopReason ?? "STOP";
    const usageMetadata: JsonObject = last
      ? {
          promptTokenCount: prompt,
          candidatesTokenCount: counts.output,
          totalTokenCount: prompt + counts.output,
          promptTokensDetails: promptDetails,
          candidatesTokensDetails: [{ modality: "TEXT", tokenCount: counts.output }],
        }
      : { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails: promptDetails };
    if (last && counts.cacheRead > 0) usageMetadata.cachedContentTokenCount = counts.cacheRead;
    return {
      data: JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: model, responseId }),
    };
  });
}
