/**
 * Base64url without padding (RFC 4648 §5) and standard base64, by `btoa`/`atob`: for PKCE, JWTs and
 * HTTP Basic credentials, with no `Buffer`.
 *
 * @module
 */

/** The bytes as a binary string (one char per byte), in chunks so a long array does not overflow the stack. */
function binaryOf(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return binary;
}

/** Bytes as base64url without padding. */
export function base64UrlOfBytes(bytes: Uint8Array): string {
  return btoa(binaryOf(bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Text (as UTF-8) as base64url without padding. */
export function base64UrlOfText(text: string): string {
  return base64UrlOfBytes(new TextEncoder().encode(text));
}

/** Text (as UTF-8) as standard base64, with padding (HTTP Basic credentials). */
export function base64OfText(text: string): string {
  return btoa(binaryOf(new TextEncoder().encode(text)));
}

/** Standard base64 (whitespace allowed, as in PEM) as bytes; throws on text that is not base64. */
export function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
