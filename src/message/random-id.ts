/**
 * Random ids (RFC 4122 version 4 UUIDs) in every context. `crypto.randomUUID` exists only in secure
 * contexts: a page served over plain http from a LAN name or address (a home server, a dev box) has
 * `crypto.getRandomValues` but no `randomUUID`, so the id is made from random bytes there.
 *
 * @module
 */

/** A version 4 UUID from `crypto.getRandomValues` (what `crypto.randomUUID` gives, where it is missing). */
export function uuidFromRandomBytes(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 4122 variant
  let hex = "";
  for (const byte of bytes) hex += (byte + 0x100).toString(16).slice(1);
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
}

/** A random version 4 UUID: `crypto.randomUUID()` where the context has it, else one from random bytes. */
export function randomId(): string {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID() : uuidFromRandomBytes();
}
