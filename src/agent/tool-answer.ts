/**
 * Turns what a tool returned into what is sent back to the model: text, and the images a tool
 * returns with `toolContent` (tool-output.ts).
 *
 * @module
 */

import { imageProblem, storedImage } from "../message/tool-image.ts";
import type { ImagePart } from "../types.ts";
import type { ToolOutput } from "./define-tool.ts";
import type { ToolContent } from "./tool-output.ts";

/**
 * The mark `toolContent` puts on its result, found through the global symbol registry (as every
 * bundled copy of Wisp finds it).
 */
const TOOL_CONTENT = Symbol.for("wisp.toolContent");

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
