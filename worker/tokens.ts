/**
 * Session tokens: 256 random bits, stored only as a SHA-256 digest, checked in constant time.
 *
 * @module
 */

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A new unguessable token. */
export function newToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The hex SHA-256 digest of a token: what the store keeps. */
export async function tokenDigest(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether `token` hashes to `digest`, comparing every character whatever the first difference. */
export async function tokenMatches(token: string, digest: string): Promise<boolean> {
  const presented = await tokenDigest(token);
  if (presented.length !== digest.length) return false;
  let difference = 0;
  for (let index = 0; index < presented.length; index++) {
    difference |= presented.charCodeAt(index) ^ digest.charCodeAt(index);
  }
  return difference === 0;
}
