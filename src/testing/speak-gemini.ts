/**
 * The scripted model's Gemini voice: a scripted turn as `streamGenerateContent?alt=sse` chunks, each a
 * whole GenerateContentResponse with only new parts (thought text with `thought: true`, text, whole
 * function calls), a usage snapshot on every chunk and `finishReason` on the last; plus Google's error
 * bodies (google.rpc status, `RetryInfo` on a 429). The chunks take the shape of the model's
 * generation, as recorded: Gemini 2.0 reports output counts only at the end; 2.5 and later number the
 * candidate, count thoughts apart and output as it goes; 3 and later end with an empty text chunk
 * that carries the finish reason. A thinking part's signature rides on the part after it, where
 * Gemini puts its `thoughtSignature`.
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

/** Which recorded chunk shape a model speaks. */
function generationOf(model: string): { numbered: boolean; trailingChunk: boolean } {
  const version = Number(/gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1] ?? "2");
  return { numbered: version >= 2.5, trailingChunk: version >= 3 };
}

/** The parts of a scripted turn, one per chunk (a string `args` is Gemini's MALFORMED_FUNCTION_CALL). */
function partsOf(turn: ScriptedTurn): JsonObject[] | "malformed" {
  const parts: JsonObject[] = [];
  let signature: string | undefined;
  const signed = (part: JsonObject): JsonObject => {
    if (signature === undefined) return part;
    const withSignature = { ...part, thoughtSignature: signature };
    signature = undefined;
    return withSignature;
  };
  for (const part of turn.content ?? []) {
    if (part.type === "thinking") {
      for (const text of toPieces(part.text)) parts.push({ text, thought: true });
      signature = part.signature;
    } else if (part.type === "text") {
      for (const text of toPieces(part.text)) parts.push(signed({ text }));
    } else if (part.type === "tool_call") {
      // Gemini has no way to send invalid argument JSON: a call it cannot form ends the turn instead.
      if (typeof part.args === "string") return "malformed";
      if (part.signature !== undefined) signature = part.signature;
      parts.push(signed({ functionCall: { name: part.name, args: part.args } }));
    }
  }
  return parts;
}

/** The whole chunk sequence of a scripted turn. */
export function speakGemini(turn: ScriptedTurn, model: string): WireEvent[] {
  const responseId = randomId("", 22);
  const counts = scriptedUsage(turn);
  const prompt = counts.input + counts.cacheRead;
  const thoughts = counts.reasoning;
  const candidates = Math.max(0, counts.output - thoughts);
  const { numbered, trailingChunk } = generationOf(model);
  const promptTokensDetails = [{ modality: "TEXT", tokenCount: prompt }];
  const chunk = (candidate: JsonObject, usageMetadata: JsonObject): WireEvent => ({
    data: JSON.stringify({
      candidates: [numbered ? { ...candidate, index: 0 } : candidate],
      usageMetadata,
      modelVersion: model,
      responseId,
    }),
  });

  const parts = partsOf(turn);
  if (parts === "malformed") {
    return [
      chunk(
        { content: {}, finishReason: "MALFORMED_FUNCTION_CALL" },
        { promptTokenCount: prompt, totalTokenCount: prompt },
      ),
    ];
  }
  if (trailingChunk || parts.length === 0) parts.push({ text: "" });
  let answered = false;
  return parts.map((part, index) => {
    const last = index === parts.length - 1;
    answered ||= part.thought !== true;
    const candidate: JsonObject = { content: { parts: [part], role: "model" } };
    if (last) candidate.finishReason = turn.stopReason ?? "STOP";
    // 2.0 counts output only on the last chunk; 2.5 and later count as they go, answer once it began.
    const countsOutput = numbered ? answered : last;
    const usage: JsonObject = { promptTokenCount: prompt };
    if (countsOutput) usage.candidatesTokenCount = candidates;
    const counted = (countsOutput ? candidates : 0) + (numbered || last ? thoughts : 0);
    usage.totalTokenCount = prompt + counted;
    usage.promptTokensDetails = promptTokensDetails;
    if (last && !numbered) usage.candidatesTokensDetails = [{ modality: "TEXT", tokenCount: candidates }];
    if (numbered && thoughts > 0) usage.thoughtsTokenCount = thoughts;
    if (last && counts.cacheRead > 0) usage.cachedContentTokenCount = counts.cacheRead;
    return chunk(candidate, usage);
  });
}
