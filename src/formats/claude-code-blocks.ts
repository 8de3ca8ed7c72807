/**
 * Claude Code message content → Wisp parts. Claude Code stores Anthropic Messages API blocks, so
 * thinking keeps its signature byte for byte and blocks Wisp has no part for (server tools, web
 * search results) are kept verbatim as Anthropic provider parts.
 *
 * @module
 */

import { storableId } from "../message/storable-values.ts";
import { imageProblem, storedImage } from "../message/tool-image.ts";
import type {
  AssistantContentPart,
  ImagePart,
  JsonObject,
  JsonValue,
  ToolResultPart,
  UserContentPart,
} from "../types.ts";
import { objectField, stringField } from "./transcript-lines.ts";

/** The text Wisp writes foreign (non-Anthropic) thinking as, so Claude Code sends it as plain text. */
export function thinkingMarker(text: string): string {
  return `<thinking>\n${text}\n</thinking>`;
}

const MARKED_THINKING = /^<thinking>\n([\s\S]*)\n<\/thinking>$/;

/** The block types Wisp reads into parts of its own; other types are kept verbatim. */
const READ_TYPES = new Set(["text", "thinking", "redacted_thinking", "tool_use"]);

/**
 * An assistant block as a Wisp part, or undefined for a malformed block of a type Wisp reads (a
 * `tool_use` with no id, a `text` with no text), which no API would take back. In a reply Wisp wrote
 * for another provider (`foreign`), a `<thinking>` marker reads back as thinking; in Claude's own
 * replies the same text stays text, as the model wrote it.
 */
export function assistantPart(block: JsonObject, foreign: boolean): AssistantContentPart | undefined {
  const type = stringField(block, "type");
  if (type === "text" && typeof block.text === "string") {
    const marked = foreign ? MARKED_THINKING.exec(block.text) : null;
    if (marked) return { type: "thinking", text: marked[1] ?? "" };
    return Array.isArray(block.citations)
      ? { type: "text", text: block.text, citations: block.citations }
      : { type: "text", text: block.text };
  }
  if (type === "thinking" && typeof block.thinking === "string") {
    const signature = stringField(block, "signature");
    return { type: "thinking", text: block.thinking, ...(signature ? { signature } : {}) };
  }
  if (type === "redacted_thinking" && typeof block.data === "string")
    return { type: "redacted_thinking", data: block.data };
  if (
    type === "tool_use" &&
    typeof block.id === "string" &&
    block.id !== "" &&
    typeof block.name === "string"
  )
    return {
      type: "tool_call",
      id: storableId(block.id),
      name: block.name,
      args: objectField(block, "input") ?? {},
    };
  return READ_TYPES.has(type ?? "") ? undefined : { type: "provider", provider: "anthropic", block };
}

/** A user content block as a Wisp part, or undefined for kinds a user message cannot hold. */
export function userPart(block: JsonObject): UserContentPart | undefined {
  const type = stringField(block, "type");
  if (type === "text" && typeof block.text === "string") return { type: "text", text: block.text };
  if (type !== "image") return undefined;
  const source = objectField(block, "source");
  const data = stringField(source, "data");
  const url = stringField(source, "url");
  if (data !== undefined)
    return { type: "image", data, mimeType: stringField(source, "media_type") ?? "image/png" };
  return url !== undefined ? { type: "image", url } : undefined;
}

/**
 * A tool result's `content` (a string or blocks) as text and images; other blocks, and images a
 * provider would refuse, become a note saying so.
 */
function resultContent(content: JsonValue | undefined): { output: string; images?: ImagePart[] } {
  if (typeof content === "string") return { output: content };
  if (!Array.isArray(content)) return { output: "" };
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const block of content) {
    const part = typeof block === "object" && block !== null && !Array.isArray(block) ? block : {};
    const image = userPart(part);
    const problem = image?.type === "image" ? imageProblem(image) : "not a part Wisp keeps";
    if (typeof part.text === "string") texts.push(part.text);
    else if (problem === undefined) images.push(storedImage(image as ImagePart));
    else texts.push(`[${stringField(part, "type") ?? "block"} omitted: ${problem}]`);
  }
  const output = texts.join("\n");
  return images.length === 0 ? { output } : { output, images };
}

/** A `tool_result` block as a Wisp result part. */
export function toolResultPart(block: JsonObject, toolName: string | undefined): ToolResultPart {
  return {
    type: "tool_result",
    toolCallId: storableId(stringField(block, "tool_use_id") ?? ""),
    ...(toolName !== undefined ? { toolName } : {}),
    ...resultContent(block.content),
    isError: block.is_error === true,
  };
}

/** A message's content as blocks (a string is one text block). */
export function contentBlocks(message: JsonObject | undefined): JsonObject[] {
  const content = message?.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is JsonObject => typeof block === "object" && block !== null && !Array.isArray(block),
  );
}
