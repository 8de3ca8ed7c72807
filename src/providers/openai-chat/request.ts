/**
 * Maps a normalized request to an OpenAI Chat Completions request (`POST /chat/completions`,
 * streaming), for OpenAI itself and for compatible servers (Ollama, vLLM, llama.cpp, Groq, DeepSeek,
 * OpenRouter, ...).
 *
 * `baseURL` is used as given, as in OpenAI's own SDK: it includes the version segment or the server's
 * own prefix (`https://api.openai.com/v1`, `http://localhost:11434/v1`,
 * `https://api.groq.com/openai/v1`), and `/chat/completions` goes after it. Nothing is inserted, since
 * compatible servers put the version in different places. Trailing slashes are ignored, a full
 * endpoint (`…/v1/chat/completions`) is used as it is, and a query (Azure's `api-version`) is kept.
 *
 * @module
 */

import { toolCallIdFor } from "../../message/tool-call-ids.ts";
import type {
  AssistantMessage,
  ImagePart,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  TextPart,
  ThinkingLevel,
  UserMessage,
} from "../../types.ts";
import { endpointUrl } from "../endpoint-url.ts";
import { imageUrl } from "../image-url.ts";
import { addOpenAICache } from "../openai-cache.ts";
import type { ProviderConfig, WireRequest } from "../provider.ts";
import { requestHeaders } from "../request-headers.ts";

/** OpenAI rejects a `tool_calls[].id` longer than 40 characters; spaces and control characters are avoided. */
const TOOL_CALL_ID = { pattern: /^[\x21-\x7e]+$/, maxLength: 40 };

/** `reasoning_effort` per thinking level; `off` sends none. */
const OPENAI_REASONING_EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
  minimal: "minimal",
  low: "low",
  medium: "medium",
  high: "high",
};

function userMessage(message: UserMessage): JsonObject {
  const onlyText = message.content.every((part) => part.type === "text");
  if (onlyText) {
    return {
      role: "user",
      content: message.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
    };
  }
  return { role: "user", content: message.content.map(contentPart) };
}

function contentPart(part: TextPart | ImagePart): JsonValue {
  return part.type === "text"
    ? { type: "text", text: part.text }
    : { type: "image_url", image_url: { url: imageUrl(part) } };
}

function assistantMessage(message: AssistantMessage): JsonObject | undefined {
  let text = "";
  const toolCalls: JsonValue[] = [];
  for (const part of message.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "tool_call") {
      toolCalls.push({
        id: toolCallIdFor(part.id, TOOL_CALL_ID),
        type: "function",
        function: { name: part.name, arguments: JSON.stringify(part.args) },
      });
    }
    // Reasoning is not accepted back by Chat Completions; provider blocks belong to other APIs.
  }
  if (text === "" && toolCalls.length === 0) return undefined;
  const out: JsonObject = { role: "assistant", content: text === "" ? null : text };
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  return out;
}

/**
 * Converts the conversation to Chat Completions `messages` (without the system message). A tool
 * message holds text only, so the images tool results returned follow the turn's tool messages in one
 * user message, each group introduced by the call it answers (tool messages must come right after the
 * assistant message that made the calls, so nothing may stand between them).
 */
function toOpenAIChatMessages(messages: Message[]): JsonObject[] {
  const out: JsonObject[] = [];
  let images: JsonValue[] = [];
  const flushImages = (): void => {
    if (images.length > 0) out.push({ role: "user", content: images });
    images = [];
  };
  for (const message of messages) {
    if (message.role !== "tool_result") flushImages();
    if (message.role === "user") out.push(userMessage(message));
    else if (message.role === "assistant") {
      const converted = assistantMessage(message);
      if (converted !== undefined) out.push(converted);
    } else {
      for (const part of message.content) {
        const id = toolCallIdFor(part.toolCallId, TOOL_CALL_ID);
        out.push({ role: "tool", tool_call_id: id, content: part.output });
        if (part.images?.length)
          images.push(
            { type: "text", text: `Images returned by the tool call ${id}:` },
            ...part.images.map(contentPart),
          );
      }
    }
  }
  flushImages();
  return out;
}

/** Builds the HTTP request for one streamed Chat Completions turn. */
export function buildOpenAIChatRequest(request: ModelRequest, config: ProviderConfig): WireRequest {
  const baseURL = config.baseURL.replace(/\/+$/, "");
  const messages = toOpenAIChatMessages(request.messages);
  if (request.systemPrompt) messages.unshift({ role: "system", content: request.systemPrompt });
  const body: JsonObject = { model: config.model, messages, stream: true };
  if (config.compat?.includeUsage !== false) body.stream_options = { include_usage: true };
  if (request.maxTokens !== undefined) {
    const field =
      config.compat?.maxTokensField ??
      (baseURL.startsWith("https://api.openai.com") ? "max_completion_tokens" : "max_tokens");
    body[field] = request.maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.thinking !== undefined && request.thinking !== "off") {
    body.reasoning_effort = OPENAI_REASONING_EFFORT[request.thinking];
  }
  if (request.stopSequences?.length) body.stop = request.stopSequences;
  if (request.tools?.length) {
    body.tools = request.tools.map(
      (tool): JsonValue => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }),
    );
  }
  if (request.output !== undefined) {
    const { name, schema } = request.output;
    body.response_format = { type: "json_schema", json_schema: { name, schema, strict: false } };
  }
  addOpenAICache(body, request.cache);
  const headers = requestHeaders(config, "authorization", (key) => `Bearer ${key}`);
  return { url: endpointUrl(config.baseURL, "/chat/completions"), headers, body };
}
