/**
 * What an MCP `tools/call` result becomes for the model. Wisp's tool results are text, so text
 * content is sent as is, an embedded text resource with its URI, and what text cannot carry (images,
 * audio, binary resources) as a one-line note of its kind and size; the whole result still reaches
 * the application through `onResult`. `structuredContent` is checked against the tool's
 * `outputSchema` and sent as JSON when the content has no text. `isError` results are thrown, so the
 * run reports them to the model as an error tool result.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";
import { asObject } from "./as-object.ts";
import { checkJsonSchema, formatSchemaIssues } from "./json-schema-check.ts";

/** A tool call the server answered with `isError: true`; its message is the server's text. */
export class McpToolFailure extends Error {
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
 * The text the model gets for a `tools/call` result. Throws {@link McpToolFailure} for `isError`, and
 * for structured content that does not match `outputSchema` (or is missing when the schema asks for it).
 */
export function callResultText(result: JsonObject, outputSchema: JsonObject | undefined): string {
  const content = Array.isArray(result.content) ? result.content.map((block) => asObject(block) ?? {}) : [];
  const text = content.map(blockText).join("\n");
  if (result.isError === true)
    throw new McpToolFailure(text === "" ? "the MCP server reported an error" : text);
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
  if (text === "" && structured !== undefined) return JSON.stringify(structured);
  return text;
}
