/**
 * PKCE (RFC 7636) with S256 by WebCrypto, and the random `state` of an authorization request.
 *
 * @module
 */

import { base64UrlOfBytes } from "./base64url.ts";

/** A PKCE pair: the verifier kept secret until the token request, and the challenge sent first. */
export interface PkcePair {
  /** 43 characters of base64url (32 random bytes): sent only to the token endpoint. */
  verifier: string;
  /** BASE64URL(SHA-256(verifier)): sent in the authorization URL. */
  challenge: string;
  /** Always `"S256"`. */
  method: "S256";
}

/** `byteCount` random bytes as base64url (from `crypto.getRandomValues`). */
export function randomToken(byteCount = 32): string {
  return base64UrlOfBytes(crypto.getRandomValues(new Uint8Array(byteCount)));
}

/** The S256 challenge of a verifier: BASE64URL(SHA-256(ASCII(verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64UrlOfBytes(new Uint8Array(digest));
}

/** A new PKCE pair (S256). */
export async function createPkce(): Promise<PkcePair> {
  const verifier = randomToken(32);
  return { verifier, challenge: await s256Challenge(verifier), method: "S256" };
}
