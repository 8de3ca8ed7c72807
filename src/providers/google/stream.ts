/**
 * Parses a Gemini `streamGenerateContent?alt=sse` stream into builder calls. Every chunk is a whole
 * GenerateContentResponse holding only new parts of candidate 0: text, thought text (`thought: true`),
 * and function calls, which arrive whole — or, on Vertex, streamed as `willContinue` pieces with
 * `partialArgs`, until a piece without `willContinue` and no arguments (`functionCall: {}`), another
 * part, or the finish reason ends them. A `thoughtSignature` on any part is kept on that part. Any
 * other part (a built-in tool's `toolCall` / `toolResponse`, `executableCode`, …) is kept whole as a
 * provider part, its signature with it, and goes back as it came. Usage is the last chunk's snapshot.
 * The stream just closes: a finish reason (or a blocked prompt) must have been seen.
 *
 * @module
 */

import { classifyProviderFailure } from "../../errors/classify.ts";
import { ProviderError } from "../../errors/sdk-error.ts";
import type { SseEvent } from "../../http/read-sse.ts";
import type { MessageBuilder } from "../../message/message-builder.ts";
import type { JsonObject, Usage } from "../../types.ts";
import { type EventData, objectAt, parseEventData, stringAt, truncatedStream } from "../parse-event-data.ts";
import type { StreamHandler } from "../provider.ts";
import { applyPartialArg } from "./partial-args.ts";
import { createQuickGeminiReader } from "./quick-chunk.ts";
import { mapGeminiStopReason } from "./stop-reason.ts";
import { readGeminiUsage } from "./usage.ts";

const TEXT = "text";

const sameUsage = (a: Usage, b: Usage): boolean =>
  a.input === b.input && a.output === b.output && a.cacheRead === b.cacheRead && a.reasoning === b.reasoning;
const THOUGHT = "thought";

/** Creates the handler for one Gemini stream. */
export function createGeminiStreamHandler(builder: MessageBuilder): StreamHandler {
  const quick = createQuickGeminiReader();
  let calls = 0;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  /** The Vertex call being streamed in pieces, if any. */
  let streaming: { key: string; args: JsonObject } | undefined;
  /** The key of the last part touched, for a signature that arrives on a part of its own. */
  let lastKey: string | undefined;

  /** Ends the Vertex call being streamed, with the arguments its pieces built. */
  const endStreaming = (): void => {
    if (streaming === undefined) return;
    builder.toolCallArgs(streaming.key, JSON.stringify(streaming.args));
    builder.close(streaming.key);
    streaming = undefined;
  };

  /** Ends what is open before a part of another kind takes the next place. */
  const closeOpen = (): void => {
    endStreaming();
    builder.close(TEXT);
    builder.close(THOUGHT);
  };

  const startCall = (name: string, id: string | undefined): string => {
    closeOpen();
    const key = `call:${calls++}`;
    builder.toolCallStart(key, id ?? "", name);
    return key;
  };

  const functionCall = (call: EventData, signature: string | undefined): void => {
    const name = stringAt(call, "name");
    if (name === undefined) {
      // A piece of the Vertex call being streamed.
      if (streaming === undefined) return;
      const partial = call.partialArgs;
      if (Array.isArray(partial))
        for (const entry of partial) applyPartialArg(streaming.args, entry as EventData);
      if (signature) builder.setSignature(streaming.key, signature);
      // The last piece may carry arguments itself; then the next part, the finish reason or the end ends it.
      if (call.willContinue !== true && !Array.isArray(partial)) endStreaming();
      return;
    }
    const key = startCall(name, stringAt(call, "id"));
    if (signature) builder.setSignature(key, signature);
    lastKey = key;
    if (call.willContinue === true) {
      streaming = { key, args: {} };
      return;
    }
    builder.toolCallArgs(key, JSON.stringify(objectAt(call, "args") ?? {}));
    builder.close(key);
  };

  const part = (value: EventData): void => {
    const signature = stringAt(value, "thoughtSignature");
    const call = objectAt(value, "functionCall");
    if (call !== undefined) {
      functionCall(call, signature);
      return;
    }
    const text = stringAt(value, "text");
    if (text !== undefined) {
      const key = value.thought === true ? THOUGHT : TEXT;
      // An empty text part only matters when it carries a signature (Gemini 3 ends turns with one).
      if (text === "" && !signature && !builder.isOpen(key)) return;
      endStreaming();
      builder.close(key === TEXT ? THOUGHT : TEXT);
      if (key === THOUGHT) builder.thinking(key, text);
      else builder.text(key, text);
      if (signature) builder.setSignature(key, signature);
      lastKey = key;
      return;
    }
    if (signature && lastKey !== undefined && Object.keys(value).length === 1) {
      builder.setSignature(lastKey, signature); // a signature on a part of its own
    } else if (Object.keys(value).length > 0) {
      // A part Wisp does not read (a built-in tool's call or response, code, data): kept whole.
      closeOpen();
      builder.providerPart(value as JsonObject);
      lastKey = undefined;
    }
  };

  return {
    onEvent(event: SseEvent): void {
      const data = quick(event.data) ?? parseEventData(event.data, "google");
      if (typeof data.error === "object" && data.error !== null) {
        throw classifyProviderFailure({ provider: "google", body: data });
      }
      const id = stringAt(data, "responseId");
      if (id && builder.message.responseId === undefined) builder.message.responseId = id;
      const usage = objectAt(data, "usageMetadata");
      const read = usage === undefined ? undefined : readGeminiUsage(usage);
      // Every chunk repeats the snapshot: report it only when it changed.
      if (read !== undefined && !sameUsage(read, builder.message.usage)) builder.setUsage(read);
      const blocked = stringAt(objectAt(data, "promptFeedback"), "blockReason");
      if (blocked) blockReason = blocked;
      const candidates = data.candidates;
      const candidate = Array.isArray(candidates) ? (candidates[0] as EventData | undefined) : undefined;
      if (candidate === undefined) return;
      const parts = objectAt(candidate, "content")?.parts;
      if (Array.isArray(parts)) for (const value of parts) part(value as EventData);
      const finish = stringAt(candidate, "finishReason");
      if (finish) {
        finishReason = finish;
        endStreaming();
      }
    },
    // The stream has no terminal event; it ends when the body does.
    isDone: () => false,
    end(): void {
      endStreaming();
      if (finishReason === undefined && blockReason === undefined) {
        throw truncatedStream("google", "a finishReason");
      }
      if (finishReason === "MALFORMED_FUNCTION_CALL") {
        throw new ProviderError(
          "Gemini produced a malformed function call (finishReason MALFORMED_FUNCTION_CALL)",
          {
            code: "SERVER_ERROR",
            retryable: true,
            provider: "google",
            providerCode: finishReason,
          },
        );
      }
      const stop = mapGeminiStopReason(finishReason, calls > 0, blockReason !== undefined);
      builder.setStop(stop, finishReason ?? blockReason);
    },
  };
}
