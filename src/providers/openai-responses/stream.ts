/**
 * Parses an OpenAI Responses stream into builder calls. Output items are keyed by `output_index`
 * (output-items.ts: function calls, messages, reasoning kept whole, built-in tools kept verbatim in
 * their place); the deltas that make up most of a stream go straight to their part. Ends with
 * `response.completed` or `response.incomplete`; `response.failed` and the `error` event (its payload
 * under `error`, or at the top level) throw. Events are dispatched on `data.type`, falling back to
 * the `event:` name.
 *
 * @module
 */

import { classifyProviderFailure } from "../../errors/classify.ts";
import type { SseEvent } from "../../http/read-sse.ts";
import type { MessageBuilder } from "../../message/message-builder.ts";
import { type EventData, objectAt, parseEventData, stringAt, truncatedStream } from "../parse-event-data.ts";
import type { StreamHandler } from "../provider.ts";
import { itemKey as key, OutputItems } from "./output-items.ts";
import { quickResponsesDelta } from "./quick-delta.ts";
import { mapResponsesStopReason } from "./stop-reason.ts";
import { readResponsesUsage } from "./usage.ts";

/** Creates the handler for one Responses stream. */
export function createResponsesStreamHandler(builder: MessageBuilder): StreamHandler {
  const items = new OutputItems(builder);
  let done = false;
  let incompleteReason: string | undefined;

  const finish = (data: EventData): void => {
    const response = objectAt(data, "response");
    if (builder.message.responseId === undefined) {
      const id = stringAt(response, "id");
      if (id) builder.message.responseId = id;
    }
    items.completed(response);
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
          items.added(data);
          break;
        case "response.output_text.delta":
          builder.text(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.refusal.delta":
          items.refused = true;
          builder.text(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          builder.thinking(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.function_call_arguments.delta":
          builder.toolCallArgs(key(data), stringAt(data, "delta") ?? "");
          break;
        case "response.output_text.done":
          items.textDone(data, false);
          break;
        case "response.refusal.done":
          items.textDone(data, true);
          break;
        case "response.function_call_arguments.done":
          items.argumentsDone(data);
          break;
        case "response.output_item.done":
          items.done(data);
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
      const stop = mapResponsesStopReason(incompleteReason, items.hasToolCalls, items.refused);
      builder.setStop(stop, incompleteReason ?? "completed");
    },
  };
}
