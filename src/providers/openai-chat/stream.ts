/**
 * Parses a Chat Completions stream into builder calls: content and reasoning deltas
 * (`reasoning_content`, `reasoning`, `reasoning_details`, Mistral's content arrays: delta-content.ts),
 * tool-call deltas keyed by index (empty ids replaced, whole calls in one chunk accepted), the three
 * usage shapes, `[DONE]` (optional), and errors sent inside a 200 stream (`event: error`, or a chunk
 * with a top-level `error`). Only choice 0 is read. The stop reason is set as soon as a
 * `finish_reason` arrives, so a turn that fails after it still says what the server sent.
 *
 * @module
 */

import { classifyProviderFailure } from "../../errors/classify.ts";
import type { SseEvent } from "../../http/read-sse.ts";
import type { MessageBuilder } from "../../message/message-builder.ts";
import { type EventData, objectAt, parseEventData, stringAt, truncatedStream } from "../parse-event-data.ts";
import type { StreamHandler } from "../provider.ts";
import { type ContentSink, readContentChunks, reasoningDetailsText } from "./delta-content.ts";
import { createQuickChatReader } from "./quick-chunk.ts";
import { mapOpenAIChatStopReason } from "./stop-reason.ts";
import { readOpenAIChatUsage } from "./usage.ts";

const TEXT = "text";
const REASONING = "reasoning";

function firstChoice(data: EventData): EventData | undefined {
  const choices = data.choices;
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices) {
    if (typeof choice === "object" && choice !== null && ((choice as EventData).index ?? 0) === 0) {
      return choice as EventData;
    }
  }
  return undefined;
}

/** Creates the handler for one Chat Completions stream. */
export function createOpenAIChatStreamHandler(builder: MessageBuilder): StreamHandler {
  const quick = createQuickChatReader();
  const toolIds = new Map<string, string>();
  let finishReason: string | undefined;
  let refused = false;
  let done = false;

  const toolCallDelta = (call: EventData, position: number): void => {
    const key = `tool:${typeof call.index === "number" ? call.index : position}`;
    const fn = objectAt(call, "function");
    const id = stringAt(call, "id");
    const known = toolIds.get(key);
    // A new call starts when the key is new, or a different non-empty id arrives under it.
    if (known === undefined || (id !== undefined && id !== "" && id !== known)) {
      builder.close(TEXT);
      builder.close(REASONING);
      builder.toolCallStart(key, id ?? "", stringAt(fn, "name") ?? "");
      toolIds.set(key, id ?? "");
    }
    const args = stringAt(fn, "arguments");
    if (args) builder.toolCallArgs(key, args);
  };

  const chunks: ContentSink = {
    text(text) {
      builder.close(REASONING);
      builder.text(TEXT, text);
    },
    thinking(text) {
      builder.close(TEXT);
      builder.thinking(REASONING, text);
    },
    other(chunk) {
      builder.close(TEXT);
      builder.close(REASONING);
      builder.providerPart(chunk);
    },
  };

  const choiceDelta = (delta: EventData): void => {
    const reasoning =
      stringAt(delta, "reasoning_content") ||
      stringAt(delta, "reasoning") ||
      reasoningDetailsText(delta.reasoning_details);
    if (reasoning) builder.thinking(REASONING, reasoning);
    const details = delta.reasoning_details;
    if (Array.isArray(details)) {
      for (const detail of details) {
        const signature = stringAt(detail as EventData, "signature");
        if (signature) builder.signature(REASONING, signature);
      }
    }
    const content = stringAt(delta, "content");
    const refusal = stringAt(delta, "refusal");
    if (content || refusal) {
      builder.close(REASONING);
      builder.text(TEXT, (content ?? "") + (refusal ?? ""));
      if (refusal) refused = true;
    } else if (Array.isArray(delta.content)) readContentChunks(delta.content, chunks);
    const calls = delta.tool_calls;
    if (Array.isArray(calls)) {
      calls.forEach((call, position) => {
        toolCallDelta(call as EventData, position);
      });
    }
  };

  const setStop = (): void => {
    const stop = refused ? "refusal" : mapOpenAIChatStopReason(finishReason, toolIds.size > 0);
    builder.setStop(stop, finishReason);
  };

  return {
    onEvent(event: SseEvent): void {
      if (event.data === "[DONE]") {
        done = true;
        return;
      }
      const data = quick(event.data) ?? parseEventData(event.data, "openai-chat");
      if (event.event === "error" || (typeof data.error === "object" && data.error !== null)) {
        throw classifyProviderFailure({ provider: "openai-chat", body: data });
      }
      if (builder.message.responseId === undefined) {
        const id = stringAt(data, "id");
        if (id) builder.message.responseId = id;
      }
      const usage = objectAt(data, "usage");
      if (usage !== undefined) builder.setUsage(readOpenAIChatUsage(usage));
      const choice = firstChoice(data);
      if (choice === undefined) return;
      const delta = objectAt(choice, "delta");
      if (delta !== undefined) choiceDelta(delta);
      const finish = stringAt(choice, "finish_reason");
      if (finish) {
        finishReason = finish;
        setStop();
      }
    },
    isDone: () => done,
    end(): void {
      if (!done && finishReason === undefined) throw truncatedStream("openai-chat", "a finish_reason");
      setStop();
    },
  };
}
