/**
 * Wisp messages → pi session entries, in the version being written: version 3 (what pi writes today:
 * entries linked by 8-hex-digit `id` / `parentId`), or version 1 (a flat list) to continue a version 1
 * file as it is. pi stores thinking natively, so thinking is written as thinking blocks.
 *
 * @module
 */

import type {
  AssistantMessage,
  ImagePart,
  JsonObject,
  Message,
  ThinkingLevel,
  ToolResultMessage,
  UserMessage,
} from "../types.ts";
import { DEFAULT_PRICES } from "../usage/default-prices.ts";
import { findPrice } from "../usage/prices.ts";
import { PI_API, PI_VERSION, piStopReason } from "./pi-messages.ts";
import { derivedShortId } from "./stable-ids.ts";
import { isoTime, LineBuffer, type TranscriptWriter } from "./transcript-writer.ts";
import { checkedMessage, checkedSessionId, checkPiCursor } from "./writer-input.ts";

/** Where a pi writer stands: the format version, and the id of the last entry (null before the first). */
export interface PiCursor {
  /** The pi session format version of the file (`PI_VERSION` for files Wisp starts). */
  version: number;
  /** The id of the last entry written, the parent of the next one; null before the first. */
  parentId: string | null;
}

/** Options for {@link piWriter}. */
export interface PiWriterOptions {
  /** The session id (the header's `id`). */
  sessionId: string;
  /** The working directory written in the header (default `/`). */
  cwd?: string;
  /** Written as the first entries of a new file: pi's `model_change` and `thinking_level_change`. */
  provider?: keyof typeof PI_API;
  /** The model id for the `model_change` entry (written only together with `provider`). */
  model?: string;
  /** The thinking level for the `thinking_level_change` entry; none is written when absent. */
  thinking?: ThinkingLevel;
  /** When the session started, for the header (epoch ms; default now). */
  createdAt?: number;
  /** Continue after entries written before (a writer's `cursor`); no header is written then. */
  cursor?: PiCursor;
  /** Entry ids already in the file, so new ones differ from them. */
  takenIds?: Iterable<string>;
}

function costOf(message: AssistantMessage): JsonObject {
  const price = findPrice(message.model, DEFAULT_PRICES);
  const part = (tokens: number, perMillion: number | undefined): number =>
    (tokens * (perMillion ?? 0)) / 1_000_000;
  const usage = message.usage;
  return {
    input: price ? part(usage.input, price.input) : 0,
    output: price ? part(usage.output, price.output) : 0,
    cacheRead: price ? part(usage.cacheRead, price.cacheRead ?? price.input) : 0,
    cacheWrite: price ? part(usage.cacheWrite, price.cacheWrite ?? price.input) : 0,
    total: usage.costUsd ?? 0,
  };
}

function assistantContent(message: AssistantMessage): JsonObject[] {
  const own = message.provider === "anthropic";
  return message.content.flatMap((part): JsonObject[] => {
    switch (part.type) {
      case "text":
        return [{ type: "text", text: part.text }];
      case "thinking":
        return [
          {
            type: "thinking",
            thinking: part.text,
            ...(own && part.signature ? { thinkingSignature: part.signature } : {}),
          },
        ];
      case "redacted_thinking":
        return own
          ? [
              {
                type: "thinking",
                thinking: "[Reasoning redacted]",
                thinkingSignature: part.data,
                redacted: true,
              },
            ]
          : [];
      case "tool_call":
        return [
          {
            type: "toolCall",
            id: part.id,
            name: part.name,
            arguments: part.args,
            ...(message.provider === "google" && part.signature ? { thoughtSignature: part.signature } : {}),
          },
        ];
      default:
        return [];
    }
  });
}

/** An image as pi keeps it: inline data; pi has no URL images, so one becomes a text note of its URL. */
function piImage(part: ImagePart): JsonObject {
  return part.data !== undefined
    ? { type: "image", data: part.data, mimeType: part.mimeType ?? "image/png" }
    : { type: "text", text: `[image: ${part.url ?? ""}]` };
}

function piMessage(message: UserMessage | AssistantMessage): JsonObject {
  if (message.role === "user")
    return {
      role: "user",
      content: message.content.map((part) =>
        part.type === "text" ? { type: "text", text: part.text } : piImage(part),
      ),
      timestamp: message.timestamp,
    };
  const { input, output, cacheRead, cacheWrite } = message.usage;
  return {
    role: "assistant",
    content: assistantContent(message),
    ...PI_API[message.provider],
    model: message.model,
    usage: {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: costOf(message),
    },
    stopReason: piStopReason(message.stopReason),
    timestamp: message.timestamp,
    ...(message.error ? { errorMessage: message.error.message } : {}),
  };
}

/**
 * A writer of pi session lines: a new file starts with its header (version 3); append each message as
 * the session makes it and `flush()` the new lines onto the end of the file.
 *
 * @example
 * ```ts no-run
 * import { piWriter } from "wisp-agent/formats";
 *
 * const writer = piWriter({ sessionId: session.id, provider: "anthropic", model: "claude-sonnet-4-5" });
 * for (const message of result.value.messages) writer.append(message);
 * await appendToFile(writer.flush());
 * ```
 */
export function piWriter(options: PiWriterOptions): TranscriptWriter<PiCursor> {
  checkedSessionId(options?.sessionId);
  checkPiCursor(options.cursor, PI_VERSION);
  const buffer = new LineBuffer();
  const taken = new Set(options.takenIds ?? []);
  const version = options.cursor?.version ?? 3;
  let parentId = options.cursor?.parentId ?? null;
  const names = new Map<string, string>();

  const entry = (type: string, fields: JsonObject, timestamp: number, ...seed: string[]): void => {
    if (version < 2) {
      buffer.push({ type, timestamp: isoTime(timestamp), ...fields });
      return;
    }
    const id = derivedShortId(taken, options.sessionId, type, ...seed);
    buffer.push({ type, id, parentId, timestamp: isoTime(timestamp), ...fields });
    parentId = id;
  };

  if (options.cursor === undefined) {
    const now = options.createdAt ?? Date.now();
    buffer.push({
      type: "session",
      version,
      id: options.sessionId,
      timestamp: isoTime(now),
      cwd: options.cwd ?? "/",
    });
    if (options.provider && options.model)
      entry(
        "model_change",
        { provider: PI_API[options.provider].provider, modelId: options.model },
        now,
        "model",
      );
    if (options.thinking)
      entry("thinking_level_change", { thinkingLevel: options.thinking }, now, "thinking");
  }

  const results = (message: ToolResultMessage): void => {
    for (const part of message.content)
      entry(
        "message",
        {
          message: {
            role: "toolResult",
            toolCallId: part.toolCallId,
            toolName: part.toolName ?? names.get(part.toolCallId) ?? "unknown",
            content: [{ type: "text", text: part.output }, ...(part.images ?? []).map(piImage)],
            isError: part.isError,
            timestamp: message.timestamp,
          },
        },
        message.timestamp,
        message.id,
        part.toolCallId,
      );
  };

  return {
    append(input: Message): void {
      const message = checkedMessage(input);
      if (message.role === "tool_result") {
        results(message);
        return;
      }
      if (message.role === "assistant")
        for (const part of message.content) if (part.type === "tool_call") names.set(part.id, part.name);
      entry("message", { message: piMessage(message) }, message.timestamp, message.id);
    },
    flush: () => buffer.flush(),
    close: () => buffer.close(),
    get cursor(): PiCursor {
      return { version, parentId };
    },
  };
}
