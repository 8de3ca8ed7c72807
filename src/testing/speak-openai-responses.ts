/**
 * The scripted model's OpenAI Responses voice: a scripted turn as the event sequence of a streamed
 * response (created, in_progress, one output item per part — reasoning with its summary, message with
 * its output_text deltas, function_call with its argument deltas — then completed, or incomplete for
 * `max_output_tokens` / `content_filter`), each with `sequence_number`; plus the error event, nested
 * as the real API sends it.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import type { ScriptedTurn } from "./script.ts";
import { scriptedUsage } from "./scripted-usage.ts";
import { argumentFragments, randomId, toPieces, type WireEvent } from "./wire-event.ts";

/** The mid-stream error event (`insufficient_quota`-style: the payload under `error`). */
export function openAIResponsesErrorEvent(
  code = "server_error",
  message = "The server had an error",
): WireEvent {
  return {
    event: "error",
    data: JSON.stringify({
      type: "error",
      sequence_number: 0,
      error: { type: code, code, message, param: null },
    }),
  };
}

/** The whole event sequence of a scripted turn. */
export function speakOpenAIResponses(turn: ScriptedTurn, model: string): WireEvent[] {
  const events: WireEvent[] = [];
  let sequence = 0;
  const emit = (data: JsonObject): void => {
    events.push({ event: String(data.type), data: JSON.stringify({ ...data, sequence_number: sequence++ }) });
  };
  const id = randomId("resp_", 48);
  const created = Math.floor(Date.now() / 1000);
  const snapshot = (status: string, output: JsonObject[], extra: JsonObject = {}): JsonObject => ({
    id,
    object: "response",
    created_at: created,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    usage: null,
    ...extra,
  });
  emit({ type: "response.created", response: snapshot("in_progress", []) });
  emit({ type: "response.in_progress", response: snapshot("in_progress", []) });

  const output: JsonObject[] = [];
  for (const [index, part] of (turn.content ?? []).entries()) {
    const at = { output_index: index };
    if (part.type === "text") {
      const itemId = randomId("msg_", 48);
      const text = toPieces(part.text).join("");
      const textPart = (value: string): JsonObject => ({
        type: "output_text",
        annotations: [],
        logprobs: [],
        text: value,
      });
      const item = (status: string, content: JsonObject[]): JsonObject => ({
        id: itemId,
        type: "message",
        status,
        content,
        role: "assistant",
      });
      emit({ type: "response.output_item.added", item: item("in_progress", []), ...at });
      const inPart = { content_index: 0, item_id: itemId, ...at };
      emit({ type: "response.content_part.added", ...inPart, part: textPart("") });
      for (const delta of toPieces(part.text)) {
        emit({ type: "response.output_text.delta", ...inPart, delta, logprobs: [] });
      }
      emit({ type: "response.output_text.done", ...inPart, logprobs: [], text });
      emit({ type: "response.content_part.done", ...inPart, part: textPart(text) });
      output.push(item("completed", [textPart(text)]));
      emit({ type: "response.output_item.done", item: output.at(-1) as JsonObject, ...at });
    } else if (part.type === "thinking") {
      const itemId = randomId("rs_", 48);
      const text = toPieces(part.text).join("");
      const encrypted = part.signature ?? `gAAAAAB${randomId("", 32)}`;
      emit({
        type: "response.output_item.added",
        item: { id: itemId, type: "reasoning", encrypted_content: encrypted, summary: [] },
        ...at,
      });
      if (text !== "") {
        const inSummary = { item_id: itemId, summary_index: 0, ...at };
        emit({
          type: "response.reasoning_summary_part.added",
          ...inSummary,
          part: { type: "summary_text", text: "" },
        });
        for (const delta of toPieces(part.text))
          emit({ type: "response.reasoning_summary_text.delta", ...inSummary, delta });
        emit({ type: "response.reasoning_summary_text.done", ...inSummary, text });
        emit({
          type: "response.reasoning_summary_part.done",
          ...inSummary,
          part: { type: "summary_text", text },
        });
      }
      const summary = text === "" ? [] : [{ type: "summary_text", text }];
      output.push({ id: itemId, type: "reasoning", encrypted_content: encrypted, summary });
      emit({ type: "response.output_item.done", item: output.at(-1) as JsonObject, ...at });
    } else if (part.type === "compaction") {
      // Opaque on the wire: the summary, encoded, stands in for OpenAI's encrypted content.
      const item = {
        id: randomId("cmp_", 48),
        type: "compaction",
        encrypted_content: `gAAAAB${btoa(encodeURIComponent(part.summary))}`,
      };
      emit({ type: "response.output_item.added", item, ...at });
      output.push(item);
      emit({ type: "response.output_item.done", item, ...at });
    } else if (part.type === "tool_call") {
      const itemId = randomId("fc_", 48);
      const callId = part.id ?? randomId("call_");
      const args = typeof part.args === "string" ? part.args : JSON.stringify(part.args);
      const item = (status: string, value: string): JsonObject => ({
        id: itemId,
        type: "function_call",
        status,
        arguments: value,
        call_id: callId,
        name: part.name,
      });
      emit({ type: "response.output_item.added", item: item("in_progress", ""), ...at });
      for (const delta of argumentFragments(part)) {
        emit({ type: "response.function_call_arguments.delta", item_id: itemId, ...at, delta });
      }
      emit({ type: "response.function_call_arguments.done", item_id: itemId, ...at, arguments: args });
      output.push(item("completed", args));
      emit({ type: "response.output_item.done", item: output.at(-1) as JsonObject, ...at });
    }
  }

  const counts = scriptedUsage(turn);
  const usage = {
    input_tokens: counts.input + counts.cacheRead,
    input_tokens_details: { cached_tokens: counts.cacheRead },
    output_tokens: counts.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: counts.input + counts.cacheRead + counts.output,
  };
  const incomplete = turn.stopReason === "max_output_tokens" || turn.stopReason === "content_filter";
  emit(
    incomplete
      ? {
          type: "response.incomplete",
          response: snapshot("incomplete", output, {
            usage,
            incomplete_details: { reason: turn.stopReason ?? "" },
          }),
        }
      : { type: "response.completed", response: snapshot("completed", output, { usage }) },
  );
  return events;
}
