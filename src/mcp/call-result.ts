/**
 * What an MCP `tools/call` result becomes for the model. Text content is sent as is, an embedded text
 * resource with its URI, images (and embedded image resources) as the tool result's images, and what
 * a model cannot take (audio, other binary resources, an image a provider would refuse) as a one-line
 * note of its kind and size; the whole result still reaches the application through `onResult`. `structuredContent` is checked against the tool's
 * `outputSchema` and sent as JSON when the content has no text. `isError` results are thrown, so the
 * run reports them to the model as an error tool result.
 *
 * @module
 */

import { type ToolContent, toolContent } from "../agent/tool-output.ts";
import { imageProblem, storedImage } from "../message/tool-image.ts";
import type { ImagePart, JsonObject, JsonValue, UserContentPart } from "../types.ts";
import { asObject } from "./as-object.ts";
import { checkJsonSchema, formatSchemaIssues } from "./json-schema-check.ts";

/** A tool call the server answered with `isError: true`; its message is the server's text. */
export class McpToolFailure extends Error {
  /** Always `"McpToolFailure"`, as stack traces and `String(error)` show it. */
  override readonly name = "McpToolFailure";
}

/** How many `=` end `text` (counted from the end: a regex here is quadratic on hostile input). */
function paddingLength(text: string): number {
  let count = 0;
  while (count < text.length && text.charCodeAt(text.length - 1 - count) === 61) count++;
  return count;
}

/** The size of base64 data in bytes, roughly, for a note. */
function sizeOf(base64: JsonValue | undefined): string {
  const length = typeof base64 === "string" ? base64.length - paddingLength(base64) : 0;
  const bytes = Math.floor((length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/** The image a block holds, when it is one a provider takes. */
function blockImage(block: JsonObject): ImagePart | undefined {
  const source = block.type === "resource" ? (asObject(block.resource) ?? {}) : block;
  const data = block.type === "image" ? source.data : block.type === "resource" ? source.blob : undefined;
  if (typeof data !== "string" || typeof source.mimeType !== "string") return undefined;
  const image: ImagePart = { type: "image", data, mimeType: source.mimeType };
  return imageProblem(image) === undefined ? storedImage(image) : undefined;
}

/** One content block as text. */
function blockText(block: JsonObject): string {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type} ${String(block.mimeType ?? "")}, ${sizeOf(block.data)}, not shown as text]`;
    case "resource": {
      const resource = asObject(block.resource) ?? {};
      const header = `[resource ${String(resource.uri ?? "")}${resource.mimeType === undefined ? "" : ` (${String(resource.mimeType)})`}]`;
      if (typeof resource.text === "string") return `${header}\n${resource.text}`;
      return `${header.slice(0, -1)}, ${sizeOf(resource.blob)} of binary data, not shown as text]`;
    }
    case "resource_link":
      return `[resource link ${String(block.uri ?? "")}${typeof block.name === "string" ? ` "${block.name}"` : ""}]`;
    default:
      return `[${String(block.type)} content]`;
  }
}

/**
 * MCP content blocks (a prompt's messages, a resource's contents) as the parts of a Wisp user message:
 * text as text, images a provider takes as images, anything else (audio, other binary data, links) as
 * a one-line note of its kind and size; neighbouring texts are joined.
 */
export function contentParts(blocks: readonly JsonObject[]): UserContentPart[] {
  const parts: UserContentPart[] = [];
  for (const block of blocks) {
    const image = blockImage(block);
    if (image !== undefined) {
      parts.push(image);
      continue;
    }
    const text = blockText(block);
    const last = parts.at(-1);
    if (last?.type === "text") last.text = `${last.text}\n${text}`;
    else parts.push({ type: "text", text });
  }
  return parts;
}

/**
 * What is wrong with the shape of a `tools/call` result, or undefined: `content` must be an array of
 * blocks that each name their `type`, a text block holding its `text` (a result with only
 * `structuredContent` may leave `content` out). Anything else would reach the model as an empty or
 * made-up answer, as if the call had worked.
 */
function malformedContent(result: JsonObject): string | undefined {
  const { content } = result;
  if (content === undefined && result.structuredContent !== undefined) return undefined;
  if (!Array.isArray(content))
    return `content must be an array of content blocks, got ${(JSON.stringify(content) ?? "nothing").slice(0, 100)}`;
  for (const [index, value] of content.entries()) {
    const block = asObject(value);
    if (typeof block?.type !== "string") return `content[${index}] is not a content block with a type`;
    if (block.type === "text" && typeof block.text !== "string")
      return `content[${index}] is a text block without text`;
  }
  return undefined;
}

/**
 * What the model gets for a `tools/call` result: its text, or its text and images. Throws
 * {@link McpToolFailure} for `isError`, and for structured content that does not match `outputSchema`
 * (or is missing when the schema asks for it).
 */
export function callResultOutput(
  result: JsonObject,
  outputSchema: JsonObject | undefined,
): string | ToolContent {
  const problem = malformedContent(result);
  if (problem !== undefined) throw new McpToolFailure(`the MCP server's result is malformed: ${problem}`);
  const content = ((result.content ?? []) as JsonValue[]).map((block) => asObject(block) ?? {});
  const images: ImagePart[] = [];
  const texts: string[] = [];
  for (const block of content) {
    const image = blockImage(block);
    if (image === undefined) texts.push(blockText(block));
    else images.push(image);
  }
  const text = texts.join("\n");
  if (result.isError === true) {
    const failure = content.map(blockText).join("\n");
    throw new McpToolFailure(failure === "" ? "the MCP server reported an error" : failure);
  }
  const structured = result.structuredContent;
  if (outputSchema !== undefined) {
    if (structured === undefined)
      throw new McpToolFailure(
        "the MCP server returned no structuredContent, but the tool has an outputSchema",
      );
    const issues = checkJsonSchema(outputSchema, structured);
    if (issues.length > 0)
      throw new McpToolFailure(
        `the MCP server's structuredContent does not match the tool's outputSchema: ${formatSchemaIssues(issues)}`,
      );
  }
  const answer = text === "" && structured !== undefined ? JSON.stringify(structured) : text;
  return images.length === 0 ? answer : toolContent({ text: answer, images });
}
