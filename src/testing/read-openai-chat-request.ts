/**
 * An OpenAI Chat Completions request body (what providers/openai-chat/request.ts sends) read back
 * into Wisp's terms: the `system` (or `developer`) message is the system prompt, `tools[].function`
 * the tools, and the other `messages` the conversation. The tool messages after an assistant message
 * come back as one tool_result message; the user message Wisp adds after them to carry the results'
 * images (each group introduced by "Images returned by the tool call <id>:") goes back into the
 * results it belongs to.
 *
 * What the wire does not carry, and so does not come back:
 * - whether a tool result is an error (Chat Completions has no field for it): `isError` is false;
 * - an assistant message's reasoning (not sent back) and its layout: its text comes back as one text
 *   part, before its tool calls; a message with neither is not sent;
 * - the split between a user message's text parts (text alone is sent as one string);
 * - tool-call ids over 40 characters, which Wisp sent mapped (call and result keep the mapped id), and
 *   a call's unparsed argument text (Wisp sends the parsed arguments);
 * - an image's unknown MIME type (sent as `image/png`), `response_format` (structured output), the
 *   token limit, temperature, reasoning effort, stop sequences and the cache key.
 *
 * @module
 */

import type { AssistantContentPart, JsonObject, JsonValue, UserContentPart } from "../types.ts";
import {
  imageFromUrl,
  isObject,
  objects,
  parsedArgs,
  type ReadRequest,
  recordedTool,
  stringOf,
  systemText,
  WireConversation,
} from "./wire-conversation.ts";

/** The text that introduces a tool result's images in the user message after the tool messages. */
const IMAGES_OF = /^Images returned by the tool call (.+):$/s;

/** A message's text: the string, or the text of its parts. */
function textOf(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  return objects(content)
    .map((part) => stringOf(part.text) ?? stringOf(part.refusal) ?? "")
    .join("");
}

function userContent(content: JsonValue | undefined): UserContentPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return objects(content).flatMap((part): UserContentPart[] => {
    if (part.type === "text") return [{ type: "text", text: stringOf(part.text) ?? "" }];
    const url = isObject(part.image_url) ? stringOf(part.image_url.url) : stringOf(part.image_url);
    return part.type === "image_url" && url !== undefined ? [imageFromUrl(url)] : [];
  });
}

function assistantContent(message: JsonObject): AssistantContentPart[] {
  const content: AssistantContentPart[] = [];
  const text = textOf(message.content);
  if (text !== "") content.push({ type: "text", text });
  for (const call of objects(message.tool_calls)) {
    const fn = isObject(call.function) ? call.function : {};
    content.push({
      type: "tool_call",
      id: stringOf(call.id) ?? "",
      name: stringOf(fn.name) ?? "",
      ...parsedArgs(stringOf(fn.arguments) ?? "{}"),
    });
  }
  return content;
}

/**
 * Puts the images of the user message Wisp adds after tool messages back into their results. False
 * (nothing changed) when `content` is not such a message for the results just read.
 */
function restoreImages(content: JsonValue | undefined, conversation: WireConversation): boolean {
  const results = conversation.messages.at(-1);
  if (results?.role !== "tool_result" || !Array.isArray(content) || content.length === 0) return false;
  const groups = new Map<string, UserContentPart[]>();
  let current: UserContentPart[] | undefined;
  for (const part of userContent(content)) {
    const id = part.type === "text" ? IMAGES_OF.exec(part.text)?.[1] : undefined;
    if (id !== undefined && results.content.some((result) => result.toolCallId === id)) {
      current = groups.get(id) ?? [];
      groups.set(id, current);
    } else if (part.type === "image" && current !== undefined) current.push(part);
    else return false;
  }
  for (const result of results.content) {
    const images = groups.get(result.toolCallId)?.filter((part) => part.type === "image");
    if (images?.length) result.images = [...(result.images ?? []), ...images];
  }
  return true;
}

/** Reads the body of request `index` (0-based) to the Chat Completions API. */
export function readOpenAIChatRequest(body: JsonObject, index: number): ReadRequest {
  const model = stringOf(body.model) ?? "";
  const conversation = new WireConversation(index, "openai-chat", model);
  const system: string[] = [];
  for (const message of objects(body.messages)) {
    if (message.role === "system" || message.role === "developer") system.push(textOf(message.content));
    else if (message.role === "assistant") conversation.assistant(assistantContent(message));
    else if (message.role === "tool") {
      conversation.toolResult({
        type: "tool_result",
        toolCallId: stringOf(message.tool_call_id) ?? "",
        output: textOf(message.content),
        isError: false,
      });
    } else if (message.role === "user" && !restoreImages(message.content, conversation))
      conversation.user(userContent(message.content));
  }
  const tools = objects(body.tools).flatMap((tool) => {
    const fn = isObject(tool.function) ? tool.function : {};
    return recordedTool(fn.name, fn.description, fn.parameters) ?? [];
  });
  const read: ReadRequest = { model, messages: conversation.messages, tools };
  const systemPrompt = systemText(system);
  if (systemPrompt !== undefined) read.systemPrompt = systemPrompt;
  return read;
}
