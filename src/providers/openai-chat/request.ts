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

import type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  ThinkingLevel,
  UserMessage,
} from "../../types.ts";
import { endpointUrl } from "../endpoint-url.ts";
import type { ProviderConfig, WireRequest } from "../provider.ts";
import { requestHeaders } from "../request-headers.ts";
import { toolCallIdFor } from "../tool-call-ids.ts";

/** OpenAI rejects a `tool_calls[].id` longer than 40 characters; spaces and control characters are avoided. */
const TOOL_CALL_ID = { pattern: /^[\x21-\x7e]+$/, maxLength: 40 };

/** `reasoning_effort` per thinking level; `off` sends none. */
export const OPENAI_REASONING_EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
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
  const content: JsonValue[] = message.content.map((part) => {
    if (part.type === "text") return { type: "text", text: part.text };
    const url =
      part.data !== undefined ? `data:${part.mimeType ?? "image/png"};base64,${part.data}` : (part.url ?? "");
    return { type: "image_url", image_url: { url } };
  });
  return { role: "user", content };
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

/** Converts the conversation to Chat Completions `messages` (without the system message). */
export function toOpenAIChatMessages(messages: Message[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const message of messages) {
    if (message.role === "user") out.push(userMessage(message));
    else if (message.role === "assistant") {
      const converted = assistantMessage(message);
      if (converted !== undefined) out.push(converted);
    } else {
      for (const part of message.content) {
        out.push({
          role: "tool",
          tool_call_id: toolCallIdFor(part.toolCallId, TOOL_CALL_ID),
          content: part.output,
        });
      }
    }
  }
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
  const headers = requestHeaders(config, "authorization", (key) => `Bearer ${key}`);
  return { url: endpointUrl(config.baseURL, "/chat/completions"), headers, body };
}
