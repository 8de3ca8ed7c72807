/**
 * An MCP server's resources (`resources/list`, `resources/templates/list`, `resources/read`,
 * `resources/subscribe`): read into typed shapes (entries without a URI dropped, pages bounded), and
 * a resource's contents turned into the parts of a Wisp user message, to attach to a prompt.
 *
 * @module
 */

import type { JsonObject, JsonValue, UserContentPart } from "../types.ts";
import { asObject } from "./as-object.ts";
import { contentParts } from "./call-result.ts";
import { listPages } from "./list-pages.ts";
import type { McpClient } from "./mcp-client.ts";

/** A resource as the server lists it. */
export interface McpResource {
  /** Its URI (`file:///notes/1.md`, `notes://1`): what `readResource` takes. */
  uri: string;
  /** Its name. */
  name: string;
  /** A human-readable name. */
  title?: string;
  /** What it is. */
  description?: string;
  /** Its MIME type, when the server knows it. */
  mimeType?: string;
  /** Its size in bytes, when the server knows it. */
  size?: number;
}

/** A family of resources the server can read, by a URI template (RFC 6570: `notes://{id}`). */
export interface McpResourceTemplate {
  /** The URI template; fill it in and pass the URI to `readResource`. */
  uriTemplate: string;
  /** Its name. */
  name: string;
  /** A human-readable name. */
  title?: string;
  /** What it is. */
  description?: string;
  /** The MIME type of what it gives. */
  mimeType?: string;
}

/** One piece of a resource's contents: text, or binary data in base64. */
export interface McpResourceContents {
  /** The URI of this piece (a directory read may give several). */
  uri: string;
  /** Its MIME type, when the server said. */
  mimeType?: string;
  /** The text, for a text resource. */
  text?: string;
  /** Base64 data, for a binary resource. */
  blob?: string;
}

const text = (value: JsonValue | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;

/** The optional text fields of an entry, as they were sent. */
function described<T extends object>(entry: T, raw: JsonObject, keys: readonly string[]): T {
  for (const key of keys) {
    const value = text(raw[key]);
    if (value !== undefined) Object.assign(entry, { [key]: value });
  }
  return entry;
}

function readResource(value: JsonValue): McpResource | undefined {
  const raw = asObject(value);
  const uri = text(raw?.uri);
  if (raw === undefined || uri === undefined || uri === "") return undefined;
  const resource: McpResource = described({ uri, name: text(raw.name) ?? uri }, raw, [
    "title",
    "description",
    "mimeType",
  ]);
  if (typeof raw.size === "number" && Number.isFinite(raw.size) && raw.size >= 0) resource.size = raw.size;
  return resource;
}

function readTemplate(value: JsonValue): McpResourceTemplate | undefined {
  const raw = asObject(value);
  const uriTemplate = text(raw?.uriTemplate);
  if (raw === undefined || uriTemplate === undefined || uriTemplate === "") return undefined;
  return described({ uriTemplate, name: text(raw.name) ?? uriTemplate }, raw, [
    "title",
    "description",
    "mimeType",
  ]);
}

function readContents(value: JsonValue): McpResourceContents | undefined {
  const raw = asObject(value);
  const uri = text(raw?.uri);
  if (raw === undefined || uri === undefined) return undefined;
  return described({ uri }, raw, ["mimeType", "text", "blob"]);
}

/** Every resource the server lists (`resources/list`, page by page). */
export function listResources(client: McpClient, signal?: AbortSignal): Promise<McpResource[]> {
  return listPages(client, "resources/list", "resources", readResource, signal);
}

/** Every resource template the server lists (`resources/templates/list`, page by page). */
export function listResourceTemplates(
  client: McpClient,
  signal?: AbortSignal,
): Promise<McpResourceTemplate[]> {
  return listPages(client, "resources/templates/list", "resourceTemplates", readTemplate, signal);
}

/** A resource's contents (`resources/read`); pieces without a URI are dropped. */
export async function readResourceContents(
  client: McpClient,
  uri: string,
  signal?: AbortSignal,
): Promise<McpResourceContents[]> {
  const result = await client.request("resources/read", { uri }, { signal });
  const contents = Array.isArray(result.contents) ? result.contents : [];
  return contents.flatMap((value) => readContents(value) ?? []);
}

/**
 * A resource's contents as the parts of a Wisp user message (`prompt: [...parts, { type: "text", … }]`):
 * each text with its URI, an image a provider takes as an image, other binary data as a one-line note.
 *
 * @example
 * ```ts
 * const notes = await mcp.readResource("notes://today");
 * if (notes.ok) await runAgent({ model, apiKey, prompt: [...resourceParts(notes.value), { type: "text", text: "Summarise." }] });
 * ```
 */
export function resourceParts(contents: readonly McpResourceContents[]): UserContentPart[] {
  return contentParts(contents.map((resource) => ({ type: "resource", resource: { ...resource } })));
}
