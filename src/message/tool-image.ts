/**
 * Whether an image from a tool (or an MCP server, or a transcript) is one the providers take. An image
 * a provider refuses must not enter the conversation: every later request of the session would fail
 * with it. So only what all four APIs accept passes: PNG, JPEG, GIF or WebP data in standard base64
 * (recognized by its first bytes, so the type sent is always the real one) of at most 5 MB, or an
 * http(s) URL.
 *
 * @module
 */

import type { ImagePart } from "../types.ts";

/** The image types every provider takes, each by the base64 of its first bytes. */
const SIGNATURES: ReadonlyArray<[type: string, start: string]> = [
  ["image/png", "iVBORw0KGgo"],
  ["image/jpeg", "/9j/"],
  ["image/gif", "R0lGOD"],
  ["image/webp", "UklGR"],
];

/** Anthropic's limit for one image, 5 MB, as base64 characters (the tightest of the four). */
const MAX_IMAGE_BASE64 = Math.ceil((5 * 1024 * 1024) / 3) * 4;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const HTTP_URL = /^https?:\/\/[^\s/]+\S*$/i;

/** The type of base64 image data, from its first bytes; undefined for anything but the four. */
function imageType(data: string): string | undefined {
  return SIGNATURES.find(([, start]) => data.startsWith(start))?.[0];
}

/** What is wrong with `image` for a provider, or undefined when every provider takes it. */
export function imageProblem(image: unknown): string | undefined {
  const { type, data, url, mimeType } = (image ?? {}) as Record<string, unknown>;
  if (type !== "image") return 'an image that is not { type: "image", data or url }';
  if (typeof data === "string") {
    if (data.length === 0) return "an image without data";
    if (data.length > MAX_IMAGE_BASE64) return "an image larger than 5 MB";
    if (data.length % 4 !== 0 || !BASE64.test(data))
      return "image data that is not standard base64 (give the data alone: no data: prefix, not base64url)";
    const detected = imageType(data);
    if (detected === undefined) return "an image that is not PNG, JPEG, GIF or WebP";
    if (mimeType !== undefined && mimeType !== detected)
      return `an image whose mimeType ${String(mimeType).slice(0, 40)} is not its type, ${detected}`;
    return undefined;
  }
  if (typeof url === "string") {
    if (url.length > 8192 || !HTTP_URL.test(url)) return "an image URL that is not http(s)";
    if (mimeType !== undefined && !SIGNATURES.some(([known]) => known === mimeType))
      return `an image whose mimeType is not PNG, JPEG, GIF or WebP: ${String(mimeType).slice(0, 40)}`;
    return undefined;
  }
  return 'an image that is not { type: "image", data or url }';
}

/** `image` as stored: its data with the type its bytes show, or its URL (and type, if given). */
export function storedImage(image: ImagePart): ImagePart {
  if (typeof image.data === "string")
    return { type: "image", data: image.data, mimeType: imageType(image.data) as string };
  const kept: ImagePart = { type: "image", url: image.url as string };
  if (typeof image.mimeType === "string") kept.mimeType = image.mimeType;
  return kept;
}
