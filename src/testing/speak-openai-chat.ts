/**
 * The scripted model's OpenAI Chat Completions voice: a scripted turn as the chunk sequence of a
 * streamed completion (role chunk, content / reasoning_content / tool_call deltas by index, the finish
 * chunk with an empty delta, the `choices: []` usage chunk when `include_usage` was asked, `[DONE]`),
 * plus OpenAI's error bodies and the in-stream error chunk.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";
import type { ScriptedTurn } from "./script.ts";
import { scriptedUsage } from "./scripted-usage.ts";
import { argumentFragments, randomId, toPieces, type WireEvent } from "./wire-event.ts";

const STATUS_ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "request_forbidden", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  413: { type: "invalid_request_error", code: "request_too_large" },
  429: { type: "requests", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
};

/** An OpenAI error body for a status; `code` overrides the usual one (`context_length_exceeded`). */
export function openAIErrorBody(status: number, message: string, code?: string): JsonObject {
  const known = STATUS_ERRORS[status] ?? { type: "server_error", code: null };
  return { error: { message, type: known.type, param: null, code: code ?? known.code } };
}

/** The in-stream error chunk (`data: {"error": …}`). */
export function openAIErrorEvent(code = "server_error", message = "The server had an error"): WireEvent {
  return { data: JSON.stringify({ error: { message, type: "server_error", param: null, code } }) };
}

/** The whole chunk sequence of a scripted turn. */
export function speakOpenAIChat(turn: ScriptedTurn, model: string, includeUsage: boolean): WireEvent[] {
  const id = randomId("chatcmpl-", 29);
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: JsonObject, finish: string | null = null): WireEvent => {
    const data: JsonObject = {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_wisp",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    if (includeUsage) data.usage = null;
    return { data: JSON.stringify(data) };
  };
  const content = turn.content ?? [];
  const toolFirst = content[0]?.type === "tool_call";
  const events: WireEvent[] = [
    chunk(
      toolFirst ? { role: "assistant", content: null } : { role: "assistant", content: "", refusal: null },
    ),
  ];
  let toolIndex = 0;
  for (const part of content) {
    if (part.type === "text") {
      for (const text of toPieces(part.text)) events.push(chunk({ content: text }));
    } else if (part.type === "thinking") {
      for (const text of toPieces(part.text)) events.push(chunk({ reasoning_content: text }));
    } else if (part.type === "tool_call") {
      const index = toolIndex++;
      const call: JsonValue = {
        index,
        id: part.id ?? randomId("call_"),
        type: "function",
        function: { name: part.name, arguments: "" },
      };
      events.push(chunk({ tool_calls: [call] }));
      for (const fragment of argumentFragments(part)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
      }
    }
  }
  const finish = turn.stopReason ?? (toolIndex > 0 ? "tool_calls" : "stop");
  events.push(chunk({}, finish));
  if (includeUsage) {
    const usage = scriptedUsage(turn);
    const prompt = usage.input + usage.cacheRead;
    events.push({
      data: JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        system_fingerprint: "fp_wisp",
        choices: [],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: usage.output,
          total_tokens: prompt + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
      }),
    });
  }
  events.push({ data: "[DONE]" });
  return events;
}
