/**
 * Parses an Anthropic Messages stream into builder calls. Handles text, tool_use with
 * input_json_delta, thinking with signature_delta, redacted_thinking, server-tool blocks (kept
 * verbatim), citations, cumulative usage from message_delta, a max_tokens stop that leaves a block
 * without content_block_stop, and `event: error` mid-stream. Unknown event types are ignored.
 *
 * @module
 */

import { classifyProviderFailure } from "../../errors/classify.ts";
import type { SseEvent } from "../../http/read-sse.ts";
import type { MessageBuilder } from "../../message/message-builder.ts";
import type { JsonObject } from "../../types.ts";
import { emptyUsage } from "../../usage/usage.ts";
import { type EventData, objectAt, parseEventData, stringAt, truncatedStream } from "../parse-event-data.ts";
import type { StreamHandler } from "../provider.ts";
import { quickAnthropicDelta } from "./quick-delta.ts";
import { mapAnthropicStopReason } from "./stop-reason.ts";
import { mergeAnthropicUsage } from "./usage.ts";

/** A block Wisp does not interpret (server tools and their results), collected and kept verbatim. */
interface VerbatimBlock {
  block: JsonObject;
  json: string[];
}

/** Creates the handler for one Anthropic stream. */
export function createAnthropicStreamHandler(builder: MessageBuilder): StreamHandler {
  const verbatim = new Map<string, VerbatimBlock>();
  let stopped = false;
  let done = false;

  const finishVerbatim = (key: string): void => {
    const pending = verbatim.get(key);
    if (pending === undefined) return;
    verbatim.delete(key);
    if (pending.json.length > 0) {
      try {
        pending.block.input = JSON.parse(pending.json.join("")) as JsonObject;
      } catch {
        pending.block.input = {};
      }
    }
    builder.providerPart(pending.block);
  };

  const startBlock = (key: string, block: EventData): void => {
    switch (block.type) {
      case "text":
        builder.text(key, stringAt(block, "text") ?? "");
        return;
      case "thinking": {
        builder.thinking(key, stringAt(block, "thinking") ?? "");
        const signature = stringAt(block, "signature");
        if (signature) builder.signature(key, signature);
        return;
      }
      case "redacted_thinking":
        builder.redactedThinking(stringAt(block, "data") ?? "");
        return;
      case "tool_use":
        builder.toolCallStart(key, stringAt(block, "id") ?? "", stringAt(block, "name") ?? "");
        return;
      default:
        verbatim.set(key, { block: block as JsonObject, json: [] });
    }
  };

  const delta = (key: string, data: EventData): void => {
    const change = objectAt(data, "delta");
    switch (change?.type) {
      case "text_delta":
        builder.text(key, stringAt(change, "text") ?? "");
        return;
      case "thinking_delta":
        builder.thinking(key, stringAt(change, "thinking") ?? "");
        return;
      case "signature_delta":
        builder.signature(key, stringAt(change, "signature") ?? "");
        return;
      case "input_json_delta": {
        const fragment = stringAt(change, "partial_json") ?? "";
        const pending = verbatim.get(key);
        if (pending !== undefined) pending.json.push(fragment);
        else builder.toolCallArgs(key, fragment);
        return;
      }
      case "compaction_delta": {
        // The provider's compaction summary arrives whole in one delta; its block is kept verbatim.
        const pending = verbatim.get(key);
        if (pending !== undefined) pending.block.content = stringAt(change, "content") ?? "";
        return;
      }
      case "citations_delta": {
        const citation = objectAt(change, "citation");
        if (citation !== undefined) builder.citation(key, citation as JsonObject);
        return;
      }
    }
  };

  const messageDelta = (data: EventData): void => {
    const change = objectAt(data, "delta");
    const raw = stringAt(change, "stop_reason");
    if (raw !== undefined) {
      stopped = true;
      const sequence = stringAt(change, "stop_sequence");
      builder.setStop(mapAnthropicStopReason(raw), raw, sequence);
    }
    const usage = objectAt(data, "usage");
    if (usage !== undefined) builder.setUsage(mergeAnthropicUsage(builder.message.usage, usage));
  };

  return {
    onEvent(event: SseEvent): void {
      const data = quickAnthropicDelta(event.data) ?? parseEventData(event.data, "anthropic");
      const type = typeof data.type === "string" ? data.type : event.event;
      const key = String(data.index);
      switch (type) {
        case "message_start": {
          const message = objectAt(data, "message");
          const id = stringAt(message, "id");
          if (id !== undefined) builder.message.responseId = id;
          const usage = objectAt(message, "usage");
          if (usage !== undefined) builder.setUsage(mergeAnthropicUsage(emptyUsage(), usage));
          return;
        }
        case "content_block_start":
          startBlock(key, objectAt(data, "content_block") ?? {});
          return;
        case "content_block_delta":
          delta(key, data);
          return;
        case "content_block_stop":
          finishVerbatim(key);
          builder.close(key);
          return;
        case "message_delta":
          messageDelta(data);
          return;
        case "message_stop":
          done = true;
          return;
        case "error":
          throw classifyProviderFailure({ provider: "anthropic", body: data });
      }
    },
    isDone: () => done,
    end(): void {
      for (const key of [...verbatim.keys()]) finishVerbatim(key);
      if (!stopped) throw truncatedStream("anthropic", "its message_delta");
    },
  };
}
