/**
 * pi's messages (`@mariozechner/pi-ai` types as pi stores them) → Wisp messages, and pi's names for
 * the APIs and stop reasons. pi keeps thinking natively; a signature is kept when it is Anthropic's
 * (pi stores other APIs' reasoning in forms Wisp's providers do not send back).
 *
 * @module
 */

import type { SerializedSdkError } from "../errors/sdk-error.ts";
import { storableId, storableUsage } from "../message/storable-values.ts";
import { imageProblem, storedImage } from "../message/tool-image.ts";
import type {
  AssistantContentPart,
  AssistantMessage,
  ImagePart,
  JsonObject,
  JsonValue,
  ProviderId,
  StopReason,
  ToolResultPart,
  UserContentPart,
} from "../types.ts";
import { contentKind, objectField, stringField } from "./transcript-lines.ts";
import type { TranscriptWarning } from "./transcript-types.ts";

/** The newest pi session version Wisp knows; a newer file is read as this one, with a warning. */
export const PI_VERSION = 3;

/** pi's `api` and `provider` for each Wisp provider (what Wisp writes). */
export const PI_API: Record<ProviderId, { api: string; provider: string }> = {
  anthropic: { api: "anthropic-messages", provider: "anthropic" },
  "openai-chat": { api: "openai-completions", provider: "openai" },
  "openai-responses": { api: "openai-responses", provider: "openai" },
  google: { api: "google-generative-ai", provider: "google" },
};

/** The Wisp provider for a pi `api` (or, without one, a pi `provider` name). */
export function providerOfPi(api: string | undefined, provider: string | undefined): ProviderId {
  if (api === "anthropic-messages") return "anthropic";
  if (api === "openai-completions") return "openai-chat";
  if (api?.endsWith("-responses")) return "openai-responses";
  if (api?.startsWith("google")) return "google";
  if (provider === "anthropic") return "anthropic";
  if (provider === "openai") return "openai-responses";
  if (provider === "google") return "google";
  return "openai-chat";
}

const STOP: Record<string, StopReason> = {
  stop: "complete",
  length: "maxTokens",
  toolUse: "toolUse",
  error: "error",
  aborted: "aborted",
};

/** pi's stop reason for a Wisp one. */
export function piStopReason(reason: StopReason): string {
  if (reason === "maxTokens") return "length";
  if (reason === "toolUse" || reason === "error" || reason === "aborted") return reason;
  return reason === "refusal" ? "error" : "stop";
}

function blocksOf(content: JsonValue | undefined): JsonObject[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is JsonObject => typeof block === "object" && block !== null && !Array.isArray(block),
  );
}

/** User content (a string or text and image blocks) as Wisp parts. */
export function piUserContent(content: JsonValue | undefined): UserContentPart[] {
  return blocksOf(content).flatMap((block): UserContentPart[] => {
    if (block.type === "text" && typeof block.text === "string") return [{ type: "text", text: block.text }];
    if (block.type === "image" && typeof block.data === "string")
      return [{ type: "image", data: block.data, mimeType: stringField(block, "mimeType") ?? "image/png" }];
    return [];
  });
}

/**
 * A pi tool result's content as text and images; other blocks, and images a provider would refuse,
 * become a note.
 */
function piResultContent(content: JsonValue | undefined): { output: string; images?: ImagePart[] } {
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const block of blocksOf(content)) {
    const [image] = block.type === "image" ? piUserContent([block]) : [];
    const problem = image?.type === "image" ? imageProblem(image) : "not a part Wisp keeps";
    if (typeof block.text === "string") texts.push(block.text);
    else if (problem === undefined) images.push(storedImage(image as ImagePart));
    else texts.push(`[${String(block.type)} omitted: ${problem}]`);
  }
  const output = texts.join("\n");
  return images.length === 0 ? { output } : { output, images };
}

function assistantPart(block: JsonObject, provider: ProviderId): AssistantContentPart | undefined {
  const signature = stringField(block, "thinkingSignature");
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? { type: "text", text: block.text } : undefined;
    case "thinking":
      if (typeof block.thinking !== "string") return undefined;
      if (provider !== "anthropic" || !signature) return { type: "thinking", text: block.thinking };
      return block.redacted === true
        ? { type: "redacted_thinking", data: signature }
        : { type: "thinking", text: block.thinking, signature };
    case "toolCall": {
      if (typeof block.id !== "string" || block.id === "" || typeof block.name !== "string") return undefined;
      const thought = stringField(block, "thoughtSignature");
      return {
        type: "tool_call",
        id: storableId(block.id),
        name: block.name,
        args: objectField(block, "arguments") ?? {},
        ...(provider === "google" && thought ? { signature: thought } : {}),
      };
    }
    default:
      return undefined;
  }
}

function errorOf(message: JsonObject, stopReason: StopReason): SerializedSdkError | undefined {
  const text = stringField(message, "errorMessage");
  if (text === undefined) return undefined;
  return stopReason === "aborted"
    ? { _tag: "AbortError", name: "AbortError", code: "ABORTED", message: text, retryable: false }
    : { _tag: "ProviderError", name: "ProviderError", code: "UNKNOWN", message: text, retryable: false };
}

/** A pi assistant message as a Wisp one. */
export function piAssistant(
  message: JsonObject,
  id: string,
  timestamp: number,
  line: number,
  warnings: TranscriptWarning[],
): AssistantMessage {
  const provider = providerOfPi(stringField(message, "api"), stringField(message, "provider"));
  const content: AssistantContentPart[] = [];
  if (!Array.isArray(message.content) && typeof message.content !== "string")
    warnings.push({ line, message: `a reply whose content is ${contentKind(message.content)}; kept empty` });
  for (const block of blocksOf(message.content)) {
    const part = assistantPart(block, provider);
    if (part) content.push(part);
    else
      warnings.push({ line, message: `a ${String(block.type)} block of a reply has no Wisp form; skipped` });
  }
  const usage = objectField(message, "usage");
  const cost = objectField(usage, "cost")?.total;
  const raw = stringField(message, "stopReason");
  const stopReason = STOP[raw ?? ""] ?? "complete";
  const error = errorOf(message, stopReason);
  return {
    id,
    role: "assistant",
    content,
    timestamp,
    provider,
    model: stringField(message, "model") ?? "",
    usage: storableUsage({
      input: Number(usage?.input ?? 0),
      output: Number(usage?.output ?? 0),
      cacheRead: Number(usage?.cacheRead ?? 0),
      cacheWrite: Number(usage?.cacheWrite ?? 0),
      reasoning: 0,
      ...(typeof cost === "number" ? { costUsd: cost } : {}),
    }),
    stopReason,
    ...(raw !== undefined ? { rawStopReason: raw } : {}),
    ...(error ? { error } : {}),
  };
}

/** A pi toolResult message as a Wisp result part. */
export function piToolResult(message: JsonObject): ToolResultPart {
  const toolName = stringField(message, "toolName");
  return {
    type: "tool_result",
    toolCallId: storableId(stringField(message, "toolCallId") ?? ""),
    ...(toolName !== undefined ? { toolName } : {}),
    ...piResultContent(message.content),
    isError: message.isError === true,
  };
}
