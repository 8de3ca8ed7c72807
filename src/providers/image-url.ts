/**
 * An image as the URL the OpenAI APIs take: its own URL, or its data as a `data:` URL.
 *
 * @module
 */

import type { ImagePart } from "../types.ts";

/** `url`, or `data:<mimeType>;base64,<data>` for inline data (PNG when the type is unknown). */
export function imageUrl(part: ImagePart): string {
  return part.data !== undefined
    ? `data:${part.mimeType ?? "image/png"};base64,${part.data}`
    : (part.url ?? "");
}
