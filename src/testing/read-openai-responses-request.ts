/**
 * An OpenAI Responses request body (what providers/openai-responses/request.ts sends) read back into
 * Wisp's terms: `instructions` is the system prompt, the `function` entries of `tools` the tools, and
 * the `input` items the conversation. Items of the model's side (assistant messages, `reasoning`,
 * `function_call` and any other typed item) gather into one assistant message until a user message or
 * a `function_call_output` comes; neighbouring outputs gather into one tool_result message.
 *
 * A `reasoning` item comes back as a thinking part, its summary (or raw reasoning text) as the text and
 * the whole item as JSON as the signature, as Wisp keeps it; any other item Wisp has no part for (a
 * `compaction` item, a built-in tool's) comes back as a `provider` part, verbatim.
 *
 * What the wire does not carry, and so does not come back:
 * - whether a tool result is an error (`function_call_output` has no field for it): `isError` is false;
 * - reasoning of another provider, and a reply with nothing sendable (neither is sent), and the split
 *   between neighbouring messages of the model's side (they come back as one);
 * - text part boundaries: neighbouring text parts of a reply come back as one;
 * - tool-call ids Wisp sent mapped (call and result keep the mapped id);
 * - an image's unknown MIME type (sent as `image/png`), `text.format` (structured output),
 *   `context_management` (native compaction), the token limit, temperature, reasoning settings and
 *   the cache key.
 *
 * @module
 */

import type { AssistantContentPart, ImagePart, JsonObject, JsonValue, UserContentPart } from "../types.ts";
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

/** An `input_image` part's image; undefined when it has no URL. */
function imageOf(part: JsonObject): ImagePart | undefined {
  const url = isObject(part.image_url) ? stringOf(part.image_url.url) : stringOf(part.image_url);
  return url === undefined ? undefined : imageFromUrl(url);
}

/** Input content as user parts: a string is one text part. */
function inputContent(content: JsonValue | undefined): UserContentPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return objects(content).flatMap((part): UserContentPart[] => {
    if (part.type === "input_text" || part.type === "output_text")
      return [{ type: "text", text: stringOf(part.text) ?? "" }];
    const image = part.type === "input_image" ? imageOf(part) : undefined;
    return image === undefined ? [] : [image];
  });
}

/** The text of an assistant message item: the string, or its output text and refusals. */
function assistantText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  return objects(content)
    .map((part) => stringOf(part.text) ?? stringOf(part.refusal) ?? "")
    .join("");
}

/** A reasoning item's text, as Wisp reads it from a stream: its summary, else its raw reasoning text. */
function reasoningText(item: JsonObject): string {
  const summary = objects(item.summary).map((entry) => stringOf(entry.text) ?? "");
  if (summary.length > 0) return summary.join("\n\n");
  return objects(item.content)
    .map((entry) => stringOf(entry.text) ?? "")
    .join("");
}

/** A part of the model's side; undefined for an item that is none. */
function assistantPart(item: JsonObject): AssistantContentPart | undefined {
  if (item.type === "reasoning")
    return { type: "thinking", text: reasoningText(item), signature: JSON.stringify(item) };
  if (item.type === "function_call") {
    return {
      type: "tool_call",
      id: stringOf(item.call_id) ?? "",
      name: stringOf(item.name) ?? "",
      ...parsedArgs(stringOf(item.arguments) ?? "{}"),
    };
  }
  return typeof item.type === "string" && item.type !== "message" && item.type !== "function_call_output"
    ? { type: "provider", provider: "openai-responses", block: item }
    : undefined;
}

/** Reads the body of request `index` (0-based) to the Responses API. */
export function readOpenAIResponsesRequest(body: JsonObject, index: number): ReadRequest {
  const model = stringOf(body.model) ?? "";
  const conversation = new WireConversation(index, "openai-responses", model);
  const system: string[] = [];
  const instructions = stringOf(body.instructions);
  if (instructions !== undefined) system.push(instructions);
  const items: JsonObject[] =
    typeof body.input === "string" ? [{ role: "user", content: body.input }] : objects(body.input);
  for (const item of items) {
    const role = item.type === undefined || item.type === "message" ? stringOf(item.role) : undefined;
    if (role === "user") conversation.user(inputContent(item.content));
    else if (role === "system" || role === "developer") system.push(assistantText(item.content));
    else if (role === "assistant") {
      const text = assistantText(item.content);
      if (text !== "") conversation.assistantPart({ type: "text", text });
    } else if (item.type === "function_call_output") {
      const output = inputContent(item.output);
      const images = output.filter((part) => part.type === "image");
      conversation.toolResult({
        type: "tool_result",
        toolCallId: stringOf(item.call_id) ?? "",
        output: output.map((part) => (part.type === "text" ? part.text : "")).join(""),
        ...(images.length > 0 ? { images } : {}),
        isError: false,
      });
    } else {
      const part = assistantPart(item);
      if (part !== undefined) conversation.assistantPart(part);
    }
  }
  const tools = objects(body.tools).flatMap((tool) =>
    tool.type === "function" ? (recordedTool(tool.name, tool.description, tool.parameters) ?? []) : [],
  );
  const read: ReadRequest = { model, messages: conversation.messages, tools };
  const systemPrompt = systemText(system);
  if (systemPrompt !== undefined) read.systemPrompt = systemPrompt;
  return read;
}
