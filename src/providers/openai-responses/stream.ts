/**
 * Parses an OpenAI Responses stream into builder calls. Output items are keyed by `output_index`:
 * `message` items stream `output_text` (and `refusal`) deltas, `function_call` items stream argument
 * deltas (the name and `call_id` come with `output_item.added`), `reasoning` items stream summary or
 * raw reasoning text and, when done, are kept whole (with `encrypted_content`) as the thinking part's
 * signature, to go back verbatim. Ends with `response.completed` or `response.incomplete`;
 * `response.failed` and the `error` event (its payload under `error`, or at the top level) throw.
 * Events are dispatched on `data.type`, falling back to the `event:` name.
 *
 * @module
 */

import { classifyProviderFailure } from "../../errors/classify.ts";
import type { SseEvent } from "../../http/read-sse.ts";
import type { MessageBuilder } from "../../message/message-builder.ts";
import type { JsonObject } from "../../types.ts";
import { type EventData, objectAt, parseEventData, stringAt, truncatedStream } from "../parse-event-data.ts";
import type { StreamHandler } from "../provider.ts";
import { quickResponsesDelta } from "./quick-delta.ts";
import { mapResponsesStopReason } from "./stop-reason.ts";
import { readResponsesUsage } from "./usage.ts";

const key = (data: EventData): string =>
  `item:${typeof data.output_index === "number" ? data.output_index : (stringAt(data, "item_id") ?? "")}`;

/** Creates the handler for one Responses stream. */
export function createResponsesStreamHandler(builder: MessageBuilder): StreamHandler {
  let done = false;
  let refused = false;
  let hasToolCalls = false;
  let incompleteReason: string | undefined;

  const itemAdded = (data: EventData): void => {
    const item = objectAt(data, "item");
    if (stringAt(item, "type") === "function_call") {
      hasToolCalls = true;
      builder.toolCallStart(key(data), stringAt(item, "call_id") ?? "", stringAt(item, "name") ?? "");
      const args = stringAt(item, "arguments");
      if (args) builder.toolCallArgs(key(data), args);
    }
  };

  const itemDone = (data: EventData): void => {
    const item = objectAt(data, "item");
    if (item === undefined) return;
    const type = stringAt(item, "type");
    if (type === "reasoning") {
      // A summary that came only with the finished item (no deltas) is still shown.
      const streamed = builder.isOpen(key(data));
      const summary = Array.isArray(item.summary) ? item.summary : [];
      const text = streamed
        ? ""
        : summary.map((entry) => stringAt(entry as EventData, "text") ?? "").join("\n\n");
      builder.thinking(key(data), text);
      // Kept whole: the item (id, summary, encrypted_content) goes back as it came.
      builder.setSignature(key(data), JSON.stringify(item));
    } else if (type === "function_call" && !builder.isOpen(key(data))) {
      // A call that arrived only whole.
      hasToolCalls = true;
      builder.toolCallStart(key(data), stringAt(item, "call_id") ?? "", stringAt(item, "name") ?? "");
      builder.toolCallArgs(key(data), stringAt(item, "arguments") ?? "");
    } else if (type !== "function_call" && type !== "message" && type !== undefined) {
      builder.providerPart(item as JsonObject);
    }
    builder.close(key(data));
  };

  const finish = (data: EventData): void => {
    const response = objectAt(data, "response");
    if (builder.message.responseId === undefined) {
      const id = stringAt(response, "id");
      if (id) builder.message.responseId = id;
    }
    const usage = objectAt(response, "usage");
    if (usage !== undefined) builder.setUsage(readResponsesUsage(usage));
    done = true;
  };

  return {
    onEvent(event: SseEvent): void {
      const data = quickResponsesDelta(event.data) ?? parseEventData(event.data, "openai-responses");
      const type = stringAt(data, "type") ?? event.event;
      switch (type) {
        case "response.created": {
          const id = stringAt(objectAt(data, "response"), "id");
          if (id) builder.message.responseId = id;
          break;
        }
        case "response.output_item.added":
          itemAdded(data);
          break;
        case "response.output_text.delta":
          builder.text(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.refusal.delta":
          refused = true;
          builder.text(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          builder.thinking(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.function_call_arguments.delta":
          builder.toolCallArgs(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.output_item.done":
          itemDone(data);
          break;
        case "response.completed":
          finish(data);
          break;
        case "response.incomplete":
          incompleteReason =
            stringAt(objectAt(objectAt(data, "response"), "incomplete_details"), "reason") ?? "unknown";
          finish(data);
          break;
        case "response.failed":
          throw classifyProviderFailure({
            provider: "openai-responses",
            body: {
              error: objectAt(objectAt(data, "response"), "error") ?? { message: "The response failed" },
            },
          });
        case "error":
          throw classifyProviderFailure({
            provider: "openai-responses",
            body: { error: objectAt(data, "error") ?? data },
          });
        default:
          break;
      }
    },
    isDone: () => done,
    end(): void {
      if (!done) throw truncatedStream("openai-responses", "response.completed");
      const stop = mapResponsesStopReason(incompleteReason, hasToolCalls, refused);
      builder.setStop(stop, incompleteReason ?? "completed");
    },
  };
}
