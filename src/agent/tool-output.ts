/**
 * Turns what a tool returned into what is sent back to the model: text, and the images a tool
 * returns with {@link toolContent}.
 *
 * @module
 */

import type { ImagePart } from "../types.ts";
import type { ToolOutput } from "./define-tool.ts";
import { imageProblem, storedImage } from "./tool-image.ts";

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

/** An image as stored, or a TypeError saying what is wrong with it (see tool-image.ts). */
function checkedImage(image: ImagePart): ImagePart {
  const problem = imageProblem(image);
  if (problem !== undefined) throw new TypeError(`The tool returned ${problem}`);
  return storedImage(image);
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
