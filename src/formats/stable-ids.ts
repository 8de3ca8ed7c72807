/**
 * Ids for lines Wisp writes into another runtime's transcript, derived from what they stand for (a
 * session, a message, a block), so writing the same session twice gives the same file and a writer
 * started again later continues with the ids an earlier one used.
 *
 * @module
 */

import { fnv1a } from "../message/tool-call-ids.ts";

/** A UUID-shaped id (version 4 layout) derived from `parts`: what Claude Code expects in `uuid`. */
export function derivedUuid(...parts: string[]): string {
  const text = parts.join("\u0000");
  const hex = [0x811c9dc5, 0x01000193, 0x5bd1e995, 0x27d4eb2f].map((seed) => fnv1a(text, seed)).join("");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** An 8-hex-digit id derived from `parts` that is not in `taken` (pi's entry ids); it is added to `taken`. */
export function derivedShortId(taken: Set<string>, ...parts: string[]): string {
  const text = parts.join("\u0000");
  for (let attempt = 0; ; attempt++) {
    const id = fnv1a(`${text}\u0000${attempt}`, 0x811c9dc5);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}
