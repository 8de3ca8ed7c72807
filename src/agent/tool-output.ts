/**
 * {@link toolContent}: what a tool returns when its answer holds images. tool-answer.ts reads it.
 *
 * @module
 */

import type { ImagePart } from "../types.ts";

/** Marks a {@link ToolContent}; `Symbol.for`, so every bundled copy of Wisp knows it. */
const TOOL_CONTENT: unique symbol = Symbol.for("wisp.toolContent") as never;

/** Text and images a tool returns together. Build it with {@link toolContent}. */
export interface ToolContent {
  /** The brand that tells a `ToolContent` from any other returned object; set by `toolContent`. */
  readonly [TOOL_CONTENT]: true;
  /** The text the model reads (`""` when there is none). */
  readonly text: string;
  /** The images the model sees after the text. */
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
