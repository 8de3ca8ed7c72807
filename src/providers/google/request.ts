/**
 * Maps a normalized request to a Gemini request (`POST {baseURL}/models/{model}:streamGenerateContent
 * ?alt=sse`, the key in the `x-goog-api-key` header, never in the URL). The conversation becomes
 * `contents` of `user` and `model` turns; tool results are `functionResponse` parts matched to their
 * calls by name and order (Gemini's own ids are optional and not sent). This API's own parts go back
 * with their `thoughtSignature`; thought text from another provider is dropped, and a function call
 * from another provider carries the documented `skip_thought_signature_validator` signature, without
 * which Gemini 3 rejects a call it did not sign.
 *
 * `baseURL` ends with the API version (`https://generativelanguage.googleapis.com/v1beta`, the
 * default, or `…/v1`, `…/v1alpha`); a base without one (the host alone, as Google's own SDK takes it,
 * or a gateway's prefix) gets `/v1beta`. Trailing slashes are ignored, a full endpoint is used as it
 * is, and a query is kept.
 *
 * @module
 */

import { ANSWER_TOOL, usesAnswerTool } from "../../output/answer-tool.ts";
import type {
  AssistantMessage,
  ImagePart,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  ThinkingLevel,
  ToolResultMessage,
  UserMessage,
} from "../../types.ts";
import { endpointUrl } from "../endpoint-url.ts";
import type { ProviderConfig, WireRequest } from "../provider.ts";
import { requestHeaders } from "../request-headers.ts";

/** The signature Gemini documents for function calls it did not produce. */
export const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";

/** `thinkingLevel` per level on Gemini 3; `off` cannot turn thinking off there and sends `low`. */
const GEMINI_3_LEVEL: Record<ThinkingLevel, string> = {
  off: "low",
  minimal: "low",
  low: "low",
  medium: "high",
  high: "high",
};
/** `thinkingBudget` per level on Gemini 2.5 (0 turns thinking off where the model allows it). */
const GEMINI_25_BUDGET: Record<ThinkingLevel, number> = {
  off: 0,
  minimal: 1024,
  low: 4096,
  medium: 10240,
  high: 24576,
};

/** Gemini 3 and later: thinking levels, and images inside a function response. */
const GEMINI_3 = /^gemini-[3-9]/;

function thinkingConfig(level: ThinkingLevel, model: string): JsonObject {
  if (GEMINI_3.test(model)) return { thinkingLevel: GEMINI_3_LEVEL[level], includeThoughts: true };
  if (level === "off") return { thinkingBudget: 0 };
  return { thinkingBudget: GEMINI_25_BUDGET[level], includeThoughts: true };
}

/** An image as a part: its data inline, or its URL as file data. */
function imagePart(part: ImagePart): JsonObject {
  if (part.data !== undefined)
    return { inlineData: { mimeType: part.mimeType ?? "image/png", data: part.data } };
  return { fileData: { fileUri: part.url ?? "", mimeType: part.mimeType ?? "image/png" } };
}

function userContent(message: UserMessage): JsonObject {
  const parts = message.content.map((part) => (part.type === "text" ? { text: part.text } : imagePart(part)));
  return { role: "user", parts };
}

function modelContent(message: AssistantMessage): JsonObject | undefined {
  const own = message.provider === "google";
  const parts: JsonObject[] = [];
  const signed = (part: JsonObject, signature: string | undefined): JsonObject =>
    own && signature ? { ...part, thoughtSignature: signature } : part;
  for (const part of message.content) {
    if (part.type === "text") parts.push(signed({ text: part.text }, part.signature));
    else if (part.type === "thinking" && own)
      parts.push(signed({ text: part.text, thought: true }, part.signature));
    else if (part.type === "tool_call") {
      const call = { functionCall: { name: part.name, args: part.args } };
      parts.push(own ? signed(call, part.signature) : { ...call, thoughtSignature: FOREIGN_CALL_SIGNATURE });
    } else if (part.type === "provider" && part.provider === "google") parts.push(part.block);
  }
  return parts.length === 0 ? undefined : { role: "model", parts };
}

/**
 * Tool results as `functionResponse` parts. Their images ride inside the response on Gemini 3 (a
 * multimodal function response); earlier models refuse that, so there they follow the responses as
 * parts of the same turn.
 */
function functionResponses(
  message: ToolResultMessage,
  names: Map<string, string>,
  model: string,
): JsonObject {
  const inside = GEMINI_3.test(model);
  const after: JsonValue[] = [];
  const parts: JsonValue[] = message.content.map((part) => {
    const response: JsonObject = {
      name: part.toolName ?? names.get(part.toolCallId) ?? "unknown",
      response: part.isError ? { error: part.output } : { output: part.output },
    };
    if (part.images?.length && inside) response.parts = part.images.map(imagePart);
    else if (part.images?.length) after.push(...part.images.map(imagePart));
    return { functionResponse: response };
  });
  return { role: "user", parts: [...parts, ...after] };
}

/** Converts the conversation to Gemini `contents` for `model` (its id without `models/`). */
export function toGeminiContents(messages: Message[], model = ""): JsonObject[] {
  const names = new Map<string, string>();
  const out: JsonObject[] = [];
  for (const message of messages) {
    if (message.role === "user") out.push(userContent(message));
    else if (message.role === "assistant") {
      for (const part of message.content) if (part.type === "tool_call") names.set(part.id, part.name);
      const content = modelContent(message);
      if (content !== undefined) out.push(content);
    } else out.push(functionResponses(message, names, model));
  }
  return out;
}

/** Builds the HTTP request for one streamed Gemini turn. */
export function buildGeminiRequest(request: ModelRequest, config: ProviderConfig): WireRequest {
  const model = config.model.replace(/^models\//, "");
  const body: JsonObject = { contents: toGeminiContents(request.messages, model) };
  const system = request.systemPrompt ? [{ text: request.systemPrompt }] : [];
  const generation: JsonObject = {};
  const { output } = request;
  const tools = (request.tools ?? []).map(
    (tool): JsonValue => ({
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: tool.inputSchema,
    }),
  );
  // Gemini 3 combines a response schema with function calling; earlier models take the schema only
  // without tools, so with tools the answer is a call of a hidden tool the model must end with (the
  // run checks the answer either way). A schema that is no object cannot be a tool's parameters: it
  // goes into the system instruction instead.
  if (output !== undefined && (GEMINI_3.test(model) || tools.length === 0)) {
    generation.responseMimeType = "application/json";
    generation.responseJsonSchema = output.schema;
  } else if (output !== undefined && usesAnswerTool("google", model, true, output.schema)) {
    tools.push({
      name: ANSWER_TOOL,
      description: "Gives your final answer. Call it once, with the whole answer, when you are done.",
      parametersJsonSchema: output.schema,
    });
    body.toolConfig = { functionCallingConfig: { mode: "ANY" } };
  } else if (output !== undefined) {
    system.push({
      text: `When you give your final answer, answer with only a JSON value matching this JSON Schema: ${JSON.stringify(output.schema)}`,
    });
  }
  if (system.length > 0) body.systemInstruction = { parts: system };
  if (request.maxTokens !== undefined) generation.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) generation.temperature = request.temperature;
  if (request.stopSequences?.length) generation.stopSequences = request.stopSequences;
  if (request.thinking !== undefined) generation.thinkingConfig = thinkingConfig(request.thinking, model);
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  if (tools.length > 0) body.tools = [{ functionDeclarations: tools }];
  const headers = requestHeaders(config, "x-goog-api-key");
  return {
    url: endpointUrl(config.baseURL, `/models/${encodeURIComponent(model)}:streamGenerateContent`, {
      query: { alt: "sse" },
      version: "/v1beta",
    }),
    headers,
    body,
  };
}
