/**
 * Maps a normalized request to an OpenAI Responses request (`POST /responses`, streaming, stateless:
 * `store: false`, with `reasoning.encrypted_content` included so reasoning can go back). The
 * conversation becomes `input` items: user messages, assistant text as assistant messages, this
 * API's own reasoning items verbatim, `function_call` items, and `function_call_output` items.
 * Reasoning from other providers is not sent (this API accepts only its own reasoning items).
 *
 * `baseURL` follows the Chat Completions rule: used as given, including its version segment
 * (`https://api.openai.com/v1`), `/responses` after it; trailing slashes ignored, a full endpoint
 * (`…/v1/responses`) used as it is, a query kept.
 *
 * @module
 */

import { ConfigError } from "../../errors/sdk-error.ts";
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
  ToolResultPart,
  UserMessage,
} from "../../types.ts";
import { endpointUrl } from "../endpoint-url.ts";
import { imageUrl } from "../image-url.ts";
import { addOpenAICache } from "../openai-cache.ts";
import type { ProviderConfig, WireRequest } from "../provider.ts";
import { requestHeaders } from "../request-headers.ts";

/** `reasoning.effort` per thinking level; `off` sends none. */
const RESPONSES_REASONING_EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
  minimal: "minimal",
  low: "low",
  medium: "medium",
  high: "high",
};

/** Responses `call_id`s: any characters, at most 64 (our own limit, the tightest any API sets). */
const CALL_ID = { pattern: /^[\w-]+$/, maxLength: 64 };

function userItem(message: UserMessage): JsonObject {
  return { role: "user", content: message.content.map(inputPart) };
}

function inputPart(part: TextPart | ImagePart): JsonValue {
  return part.type === "text"
    ? { type: "input_text", text: part.text }
    : { type: "input_image", image_url: imageUrl(part), detail: "auto" };
}

/** A tool result's `output`: its text, or its text and images as input parts. */
function toolOutput(part: ToolResultPart): JsonValue {
  if (!part.images?.length) return part.output;
  const parts: JsonValue[] = part.images.map(inputPart);
  if (part.output !== "") parts.unshift(inputPart({ type: "text", text: part.output }));
  return parts;
}

/** A stored reasoning item, if the thinking part came from this API. */
function reasoningItem(signature: string | undefined): JsonObject | undefined {
  if (signature === undefined) return undefined;
  try {
    const item: unknown = JSON.parse(signature);
    if (typeof item === "object" && item !== null && (item as JsonObject).type === "reasoning")
      return item as JsonObject;
  } catch {
    // not ours
  }
  return undefined;
}

function assistantItems(message: AssistantMessage, out: JsonObject[]): void {
  const own = message.provider === "openai-responses";
  let text = "";
  const flushText = (): void => {
    if (text !== "") out.push({ role: "assistant", content: text });
    text = "";
  };
  for (const part of message.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "thinking") {
      const item = own ? reasoningItem(part.signature) : undefined;
      if (item !== undefined) {
        flushText();
        out.push(item);
      }
    } else if (part.type === "tool_call") {
      flushText();
      out.push({
        type: "function_call",
        call_id: toolCallIdFor(part.id, CALL_ID),
        name: part.name,
        arguments: part.rawArgs ?? JSON.stringify(part.args),
      });
    } else if (part.type === "provider" && part.provider === "openai-responses") {
      flushText();
      out.push(part.block);
    }
  }
  flushText();
}

/** Converts the conversation to Responses `input` items. */
export function toResponsesInput(messages: Message[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const message of messages) {
    if (message.role === "user") out.push(userItem(message));
    else if (message.role === "assistant") assistantItems(message, out);
    else {
      for (const part of message.content) {
        out.push({
          type: "function_call_output",
          call_id: toolCallIdFor(part.toolCallId, CALL_ID),
          output: toolOutput(part),
        });
      }
    }
  }
  return out;
}

/**
 * Builds the HTTP request for one streamed Responses turn. Throws ConfigError for stop sequences,
 * which this API does not have (sending them would be a 400; dropping them would change the answer).
 */
export function buildResponsesRequest(request: ModelRequest, config: ProviderConfig): WireRequest {
  if (request.stopSequences?.length) {
    throw new ConfigError("The OpenAI Responses API has no stop sequences", {
      code: "CONFIG_INVALID",
      path: "stopSequences",
    });
  }
  const body: JsonObject = {
    model: config.model,
    input: toResponsesInput(request.messages),
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
  };
  if (request.systemPrompt) body.instructions = request.systemPrompt;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.thinking !== undefined && request.thinking !== "off") {
    body.reasoning = { effort: RESPONSES_REASONING_EFFORT[request.thinking], summary: "auto" };
  }
  if (request.tools?.length) {
    body.tools = request.tools.map(
      (tool): JsonValue => ({
        type: "function",
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
        strict: false,
      }),
    );
  }
  if (request.output !== undefined) {
    const { name, schema } = request.output;
    body.text = { format: { type: "json_schema", name, schema, strict: false } };
  }
  // OpenAI's server-side compaction: past the threshold it emits an encrypted compaction item, kept
  // as a provider part and sent back with the input.
  if (request.nativeCompaction !== undefined)
    body.context_management = [
      { type: "compaction", compact_threshold: request.nativeCompaction.threshold ?? 200_000 },
    ];
  addOpenAICache(body, request.cache);
  const headers = requestHeaders(config, "authorization", (key) => `Bearer ${key}`);
  return { url: endpointUrl(config.baseURL, "/responses"), headers, body };
}
