/**
 * Random ids (RFC 4122 version 4 UUIDs) in every context. `crypto.randomUUID` exists only in secure
 * contexts: a page served over plain http from a LAN name or address (a home server, a dev box) has
 * `crypto.getRandomValues` but no `randomUUID`, so the id is made from random bytes there.
 *
 * @module
 */

/** Hex digits of each byte value, made once. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A version 4 UUID from `crypto.getRandomValues` (what `crypto.randomUUID` gives, where it is missing). */
export function uuidFromRandomBytes(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80; // the RFC 4122 variant
  const hex = Array.from(bytes, (byte) => HEX[byte] as string).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A random version 4 UUID: `crypto.randomUUID()` where the context has it, else one from random bytes. */
export function randomId(): string {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID() : uuidFromRandomBytes();
}
