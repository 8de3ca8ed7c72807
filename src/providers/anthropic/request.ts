/**
 * Maps a normalized request to an Anthropic Messages API request (`POST /v1/messages`, streaming).
 *
 * `baseURL` is the host, as in Anthropic's own SDK, with or without the version:
 * `https://api.anthropic.com`, `https://api.anthropic.com/`, `…/v1` and `…/v1/` all reach
 * `https://api.anthropic.com/v1/messages`; a gateway's prefix (`https://gateway.example/anthropic`)
 * gets `/v1/messages` after it; a full endpoint (`…/v1/messages`) is used as it is; a query is kept.
 *
 * @module
 */

import { ConfigError } from "../../errors/sdk-error.ts";
import { type IdRule, toolCallIdFor } from "../../message/tool-call-ids.ts";
import type {
  AssistantMessage,
  ImagePart,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  TextPart,
  ToolResultMessage,
} from "../../types.ts";
import { closedSchema } from "../closed-schema.ts";
import { endpointUrl } from "../endpoint-url.ts";
import type { ProviderConfig, WireRequest } from "../provider.ts";
import { markCacheBreakpoints } from "./cache-breakpoints.ts";
import { anthropicThinking } from "./thinking.ts";

/** Anthropic's `tool_use` ids: `^[a-zA-Z0-9_-]+$` (and we keep them to 64 characters). */
export const TOOL_USE_ID: IdRule = { pattern: /^[a-zA-Z0-9_-]+$/, maxLength: 64 };

/**
 * Whether a text block may be sent: Anthropic refuses an empty or blank one with a 400 ("text content
 * blocks must contain non-whitespace text"), and its own replies hold such blocks (Claude Code
 * transcripts keep the `"\n\n"` a reply opens with before its thinking), so they are left out.
 */
const sendable = (text: string): boolean => text.trim() !== "";

/** The output limit sent when the caller sets none (Anthropic requires one). */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** An image as an Anthropic `image` block: base64 data, or a URL. */
export function imageBlock(part: ImagePart): JsonObject {
  return part.data !== undefined
    ? { type: "image", source: { type: "base64", media_type: part.mimeType ?? "image/png", data: part.data } }
    : { type: "image", source: { type: "url", url: part.url ?? "" } };
}

/** Text and image parts as content blocks, leaving out blank text and images with nothing in them. */
function contentBlocks(parts: (TextPart | ImagePart)[]): JsonObject[] {
  const blocks: JsonObject[] = [];
  for (const part of parts) {
    if (part.type === "text") {
      if (sendable(part.text)) blocks.push({ type: "text", text: part.text });
    } else if (part.data !== undefined || part.url !== undefined) blocks.push(imageBlock(part));
  }
  return blocks;
}

function assistantContent(message: AssistantMessage): JsonObject[] {
  const own = message.provider === "anthropic";
  const blocks: JsonObject[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        if (sendable(part.text)) blocks.push({ type: "text", text: part.text });
        break;
      case "thinking":
        // A signed block goes back as is; reasoning from another provider (or unsigned) becomes text.
        if (own && part.signature)
          blocks.push({ type: "thinking", thinking: part.text, signature: part.signature });
        else if (sendable(part.text)) blocks.push({ type: "text", text: part.text });
        break;
      case "redacted_thinking":
        if (own) blocks.push({ type: "redacted_thinking", data: part.data });
        break;
      case "tool_call":
        blocks.push({
          type: "tool_use",
          id: toolCallIdFor(part.id, TOOL_USE_ID),
          name: part.name,
          input: part.args,
        });
        break;
      case "provider":
        if (part.provider === "anthropic") blocks.push(part.block);
        break;
    }
  }
  return blocks;
}

function toolResultContent(message: ToolResultMessage): JsonObject[] {
  return message.content.map((part) => ({
    type: "tool_result",
    tool_use_id: toolCallIdFor(part.toolCallId, TOOL_USE_ID),
    // Anthropic takes only text in an error result.
    content:
      part.images?.length && !part.isError
        ? contentBlocks([{ type: "text", text: part.output }, ...part.images])
        : part.output,
    is_error: part.isError,
  }));
}

/** Converts the conversation to Anthropic `messages`, dropping empty ones and joining neighbours of one role. */
function toAnthropicMessages(messages: Message[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const message of messages) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const content =
      message.role === "user"
        ? contentBlocks(message.content)
        : message.role === "assistant"
          ? assistantContent(message)
          : toolResultContent(message);
    if (content.length === 0) continue;
    const previous = out.at(-1);
    // Messages alternate on the wire: a user message after tool results joins them (steering does this).
    if (previous?.role === role) (previous.content as JsonObject[]).push(...content);
    else out.push({ role, content });
  }
  return out;
}

/** Whether the conversation holds a server compaction block, which goes back only with its beta. */
function hasCompactionBlock(messages: Message[]): boolean {
  return messages.some(
    (message) =>
      message.role === "assistant" &&
      message.content.some(
        (part) =>
          part.type === "provider" && part.provider === "anthropic" && part.block.type === "compaction",
      ),
  );
}

/** Adds `beta` to the `anthropic-beta` header (whatever its case), keeping the betas already there. */
function addBeta(headers: Record<string, string>, beta: string): void {
  const key =
    Object.keys(headers).find((name) => name.toLowerCase() === "anthropic-beta") ?? "anthropic-beta";
  const betas = (headers[key] ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (!betas.includes(beta)) betas.push(beta);
  headers[key] = betas.join(",");
}

/** Builds the HTTP request for one streamed Anthropic turn. */
export function buildAnthropicRequest(request: ModelRequest, config: ProviderConfig): WireRequest {
  const thinking = anthropicThinking(request.thinking, config.model);
  const maxTokens = (request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS) + thinking.extraTokens;
  const body: JsonObject = {
    model: config.model,
    max_tokens: maxTokens,
    stream: true,
    messages: toAnthropicMessages(request.messages),
    ...thinking.fields,
  };
  if (request.temperature !== undefined) {
    const thinkingOn = request.thinking !== undefined && request.thinking !== "off";
    if (thinkingOn && request.temperature !== 1) {
      throw new ConfigError("Anthropic accepts no temperature other than 1 while thinking is on", {
        code: "CONFIG_INVALID",
        provider: "anthropic",
        path: "temperature",
      });
    }
    body.temperature = request.temperature;
  }
  if (request.systemPrompt && sendable(request.systemPrompt)) body.system = request.systemPrompt;
  if (request.stopSequences?.length) body.stop_sequences = request.stopSequences;
  if (request.tools?.length) {
    body.tools = request.tools.map(
      (tool): JsonValue => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
      }),
    );
  }
  if (request.output !== undefined) {
    const format = { type: "json_schema", schema: closedSchema(request.output.schema) };
    body.output_config = { ...(body.output_config as JsonObject | undefined), format };
  }
  const native = request.nativeCompaction;
  if (native !== undefined) {
    const edit: JsonObject = { type: "compact_20260112" };
    // Anthropic's trigger is at least 50,000 tokens.
    if (native.threshold !== undefined)
      edit.trigger = { type: "input_tokens", value: Math.max(50_000, native.threshold) };
    if (native.instructions !== undefined) edit.instructions = native.instructions;
    body.context_management = { edits: [edit] };
  }
  if (request.cache !== false) markCacheBreakpoints(body, request.cache);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    "anthropic-version": "2023-06-01",
    // Lets the same code call Anthropic from a browser page; servers ignore it.
    "anthropic-dangerous-direct-browser-access": "true",
  };
  if (config.apiKey !== undefined) headers["x-api-key"] = config.apiKey;
  Object.assign(headers, config.headers);
  // Compaction (asked for, or a compaction block sent back) needs its beta, beside any the caller set.
  if (native !== undefined || hasCompactionBlock(request.messages)) addBeta(headers, "compact-2026-01-12");
  return { url: endpointUrl(config.baseURL, "/messages", { version: "/v1" }), headers, body };
}
