/**
 * Turns what a tool returned into what is sent back to the model: text, and the images a tool
 * returns with {@link toolContent}.
 *
 * @module
 */

import { MAX_STRING_LENGTH } from "../stream/storable-values.ts";
import type { ImagePart } from "../types.ts";
import type { ToolOutput } from "./define-tool.ts";

/** Marks a {@link ToolContent}; `Symbol.for`, so every bundled copy of Wisp knows it. */
const TOOL_CONTENT: unique symbol = Symbol.for("wisp.toolContent") as never;

/** Text and images a tool returns together. Build it with {@link toolContent}. */
export interface ToolContent {
  readonly [TOOL_CONTENT]: true;
  readonly text: string;
  readonly images: readonly ImagePart[];
}

/**
 * What a tool returns when its answer holds images: the text, and the images the model sees after
 * it. An image is base64 `data` with its `mimeType`, or a `url` the provider fetches itself.
 *
 * @example
 * ```ts
 * const screenshot = defineTool({
 *   name: "screenshot",
 *   description: "Captures the page",
 *   inputSchema: { type: "object", properties: {} },
 *   execute: async () =>
 *     toolContent({ text: "The page as it is now", images: [{ type: "image", data: png, mimeType: "image/png" }] }),
 * });
 * ```
 */
export function toolContent(content: { text?: string; images: readonly ImagePart[] }): ToolContent {
  return { [TOOL_CONTENT]: true, text: content.text ?? "", images: content.images };
}

/** A tool's answer as Wisp keeps it: its text, and its images when it has any. */
export interface ToolAnswer {
  text: string;
  images?: ImagePart[];
}

/** Base64 as the providers accept it (a `data:` URL prefix is not part of it). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What is wrong with an image a tool returned, or `undefined` when a provider would take it. An
 * image a provider would refuse must not enter the conversation: every later request of the session
 * would fail with it.
 */
export function imageProblem(image: ImagePart): string | undefined {
  const { data, url, mimeType } = (image ?? {}) as ImagePart;
  const value = data ?? url;
  if (image?.type !== "image" || typeof value !== "string")
    return 'an image that is not { type: "image", data or url }';
  if (value.length > MAX_STRING_LENGTH) return `an image larger than ${MAX_STRING_LENGTH} characters`;
  if (typeof data === "string" && !BASE64.test(data))
    return "image data that is not base64 (without a data: prefix)";
  if (mimeType !== undefined && !/^image\/[\w.+-]+$/.test(String(mimeType)))
    return `an image whose mimeType is not image/…: ${String(mimeType).slice(0, 40)}`;
  return undefined;
}

/** An image as stored (only its own fields), or a TypeError saying what is wrong with it. */
function checkedImage(image: ImagePart): ImagePart {
  const problem = imageProblem(image);
  if (problem !== undefined) throw new TypeError(`The tool returned ${problem}`);
  const kept: ImagePart = { type: "image" };
  if (image.data !== undefined) kept.data = image.data;
  else kept.url = image.url as string;
  if (image.mimeType !== undefined) kept.mimeType = image.mimeType;
  return kept;
}

/**
 * Text as is, nothing as `""`, a {@link ToolContent} as its text and images, any other value as its
 * JSON text. Throws a TypeError for values JSON cannot hold and for malformed images.
 */
export function toolAnswer(value: ToolOutput): ToolAnswer {
  if (typeof value === "string") return { text: value };
  if (value === undefined) return { text: "" };
  if (typeof value === "object" && value !== null && TOOL_CONTENT in value) {
    const { text, images } = value as ToolContent;
    if (typeof text !== "string" || !Array.isArray(images))
      throw new TypeError("The tool returned toolContent without text or images");
    return images.length === 0 ? { text } : { text, images: images.map(checkedImage) };
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`The tool returned a ${typeof value}, which is not JSON`);
  return { text };
}
