/**
 * An Anthropic Messages request body (what providers/anthropic/request.ts sends) read back into Wisp's
 * terms: `system` is the system prompt, `tools[].input_schema` the tools, and `messages` the
 * conversation. A wire `user` message may hold tool results and user content together (Wisp joins a
 * user message that follows tool results into one); they come back as a tool_result message and a
 * user message, in their order.
 *
 * What the wire does not carry, and so does not come back:
 * - messages Wisp left out because nothing of them could be sent (an empty or blank reply), blank
 *   text blocks, and the split between two neighbouring messages of one side (they come back as one);
 * - thinking Wisp sent as text (unsigned, or another provider's): it comes back as a text part, and
 *   redacted thinking or provider blocks of another provider (not sent at all);
 * - text citations, and the images of an error result (Anthropic takes only text there);
 * - a tool-call id Anthropic would refuse, which Wisp sent mapped (call and result keep the mapped id);
 * - an image's unknown MIME type (sent as `image/png`), the `cache_control` marks, the thinking
 *   settings, `output_config` (structured output) and `context_management` (native compaction).
 *
 * Blocks Wisp has no part for (a server tool's `server_tool_use`, `web_search_tool_result`,
 * `compaction`, …) come back as `provider` parts of the assistant message, verbatim.
 *
 * @module
 */

import type {
  AssistantContentPart,
  ImagePart,
  JsonObject,
  ToolResultPart,
  UserContentPart,
} from "../types.ts";
import {
  isObject,
  objects,
  type ReadRequest,
  recordedTool,
  stringOf,
  systemText,
  WireConversation,
} from "./wire-conversation.ts";

/** A message's content as blocks: a string is one text block. */
function blocksOf(content: unknown): JsonObject[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : objects(content);
}

/** An `image` block as an image part; undefined when its source is neither base64 nor a URL. */
function imageOf(block: JsonObject): ImagePart | undefined {
  const source = isObject(block.source) ? block.source : {};
  const data = stringOf(source.data);
  if (source.type === "base64" && data !== undefined) {
    const mimeType = stringOf(source.media_type);
    return mimeType === undefined ? { type: "image", data } : { type: "image", data, mimeType };
  }
  const url = stringOf(source.url);
  return source.type === "url" && url !== undefined ? { type: "image", url } : undefined;
}

/** A block without the `cache_control` mark Wisp adds to a request's breakpoints. */
function unmarked(block: JsonObject): JsonObject {
  const { cache_control: _mark, ...rest } = block;
  return rest;
}

function assistantPart(block: JsonObject): AssistantContentPart | undefined {
  switch (block.type) {
    case "text":
      return { type: "text", text: stringOf(block.text) ?? "" };
    case "thinking": {
      const signature = stringOf(block.signature);
      const text = stringOf(block.thinking) ?? "";
      return signature === undefined ? { type: "thinking", text } : { type: "thinking", text, signature };
    }
    case "redacted_thinking":
      return { type: "redacted_thinking", data: stringOf(block.data) ?? "" };
    case "tool_use":
      return {
        type: "tool_call",
        id: stringOf(block.id) ?? "",
        name: stringOf(block.name) ?? "",
        args: isObject(block.input) ? block.input : {},
      };
    default:
      return typeof block.type === "string"
        ? { type: "provider", provider: "anthropic", block: unmarked(block) }
        : undefined;
  }
}

function toolResult(block: JsonObject): ToolResultPart {
  let output = "";
  const images: ImagePart[] = [];
  if (typeof block.content === "string") output = block.content;
  for (const inner of typeof block.content === "string" ? [] : objects(block.content)) {
    if (inner.type === "text") output += stringOf(inner.text) ?? "";
    const image = inner.type === "image" ? imageOf(inner) : undefined;
    if (image !== undefined) images.push(image);
  }
  const part: ToolResultPart = {
    type: "tool_result",
    toolCallId: stringOf(block.tool_use_id) ?? "",
    output,
    isError: block.is_error === true,
  };
  if (images.length > 0) part.images = images;
  return part;
}

/** A wire user message: its runs of user content and of tool results, in order. */
function readUser(blocks: JsonObject[], conversation: WireConversation): void {
  let content: UserContentPart[] = [];
  for (const block of blocks) {
    if (block.type === "tool_result") {
      conversation.user(content);
      content = [];
      conversation.toolResult(toolResult(block));
    } else if (block.type === "text") content.push({ type: "text", text: stringOf(block.text) ?? "" });
    else if (block.type === "image") {
      const image = imageOf(block);
      if (image !== undefined) content.push(image);
    }
  }
  conversation.user(content);
}

/** The system prompt: the string, or the text of its blocks (Wisp sends one, marked for the cache). */
function systemOf(system: unknown): string | undefined {
  if (typeof system === "string") return system;
  return systemText(
    objects(system)
      .filter((block) => block.type === "text")
      .map((block) => stringOf(block.text) ?? ""),
  );
}

/** Reads the body of request `index` (0-based) to the Anthropic Messages API. */
export function readAnthropicRequest(body: JsonObject, index: number): ReadRequest {
  const model = stringOf(body.model) ?? "";
  const conversation = new WireConversation(index, "anthropic", model);
  for (const message of objects(body.messages)) {
    const blocks = blocksOf(message.content);
    if (message.role === "assistant")
      conversation.assistant(blocks.flatMap((block) => assistantPart(block) ?? []));
    else if (message.role === "user") readUser(blocks, conversation);
  }
  const tools = objects(body.tools).flatMap(
    (tool) => recordedTool(tool.name, tool.description, tool.input_schema) ?? [],
  );
  const read: ReadRequest = { model, messages: conversation.messages, tools };
  const systemPrompt = systemOf(body.system);
  if (systemPrompt !== undefined) read.systemPrompt = systemPrompt;
  return read;
}
