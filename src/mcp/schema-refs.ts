/**
 * Local `$ref`s resolved against the root schema: `#`, `#/$defs/…`, `#/definitions/…`, with JSON
 * Pointer escapes and percent-encoding decoded.
 *
 * @module
 */

import { isObject, type Schema } from "./json-values.ts";

/** One JSON Pointer segment of a `$ref`, unescaped; undefined for bad percent-encoding (`%E0`). */
function pointerKey(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return decoded.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/name`, `#/definitions/name`, JSON Pointer escapes):
 * undefined for one that points nowhere (or elsewhere: another document, or a fragment that is no
 * JSON Pointer, such as a `$anchor` name `#num`), `"malformed"` for one that cannot be decoded.
 */
export function resolveRef(root: Schema, ref: string): Schema | undefined | "malformed" {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    const key = pointerKey(raw);
    if (key === undefined) return "malformed";
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return typeof node === "boolean" || isObject(node) ? node : undefined;
}
