/**
 * The scripted model's Anthropic voice: a scripted turn as the exact event sequence of a Messages
 * stream (message_start, blocks with their deltas and a ping after the first block start,
 * message_delta with cumulative usage, message_stop), plus Anthropic's error bodies and error event.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import type { ScriptedTurn } from "./script.ts";
import { scriptedUsage } from "./scripted-usage.ts";
import { argumentFragments, randomId, toPieces, type WireEvent } from "./wire-event.ts";

const event = (data: JsonObject): WireEvent => ({ event: String(data.type), data: JSON.stringify(data) });

const STATUS_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  409: "conflict_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

/** The error type Anthropic sends with an HTTP status. */
export function anthropicErrorType(status: number): string {
  return STATUS_TYPES[status] ?? "api_error";
}

/** An Anthropic error body. */
export function anthropicErrorBody(type: string, message: string): JsonObject {
  return { type: "error", error: { type, message }, request_id: randomId("req_") };
}

/** The mid-stream `event: error` Anthropic sends (overloaded by default). */
export function anthropicErrorEvent(type = "overloaded_error", message = "Overloaded"): WireEvent {
  return {
    event: "error",
    data: JSON.stringify({
      type: "error",
      error: { details: null, type, message },
      request_id: randomId("req_"),
    }),
  };
}

function blockEvents(part: NonNullable<ScriptedTurn["content"]>[number], index: number): WireEvent[] {
  const events: WireEvent[] = [];
  const delta = (change: JsonObject): void => {
    events.push(event({ type: "content_block_delta", index, delta: change }));
  };
  switch (part.type) {
    case "text":
      events.push(event({ type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      for (const text of toPieces(part.text)) delta({ type: "text_delta", text });
      break;
    case "thinking":
      events.push(
        event({
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        }),
      );
      for (const thinking of toPieces(part.text)) delta({ type: "thinking_delta", thinking });
      if (part.signature !== undefined) delta({ type: "signature_delta", signature: part.signature });
      break;
    case "redacted_thinking":
      events.push(
        event({
          type: "content_block_start",
          index,
          content_block: { type: "redacted_thinking", data: part.data },
        }),
      );
      break;
    case "compaction":
      events.push(
        event({ type: "content_block_start", index, content_block: { type: "compaction", content: null } }),
      );
      delta({ type: "compaction_delta", content: part.summary });
      break;
    case "tool_call": {
      const id = part.id ?? randomId("toolu_01");
      events.push(
        event({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id, name: part.name, input: {} },
        }),
      );
      delta({ type: "input_json_delta", partial_json: "" });
      for (const partial_json of argumentFragments(part)) delta({ type: "input_json_delta", partial_json });
      break;
    }
  }
  events.push(event({ type: "content_block_stop", index }));
  return events;
}

/** The whole event sequence of a scripted turn. */
export function speakAnthropic(turn: ScriptedTurn, model: string): WireEvent[] {
  const content = turn.content ?? [];
  const usage = scriptedUsage(turn);
  const inputUsage = {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
  const events: WireEvent[] = [
    event({
      type: "message_start",
      message: {
        model,
        id: randomId("msg_01"),
        type: "message",
        role: "assistant",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...inputUsage, output_tokens: 1 },
      },
    }),
  ];
  content.forEach((part, index) => {
    const block = blockEvents(part, index);
    if (index === 0) block.splice(1, 0, { event: "ping", data: JSON.stringify({ type: "ping" }) });
    events.push(...block);
  });
  const hasToolCall = content.some((part) => part.type === "tool_call");
  const stopReason = turn.stopReason ?? (hasToolCall ? "tool_use" : "end_turn");
  events.push(
    event({
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { ...inputUsage, output_tokens: usage.output },
    }),
    event({ type: "message_stop" }),
  );
  return events;
}
