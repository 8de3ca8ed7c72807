/**
 * Session tokens (worker/tokens.ts): new tokens are 43 base64url characters (256 bits, no padding),
 * digests are the full 64-character SHA-256 hex, and a stored digest of another length never matches.
 */
import { describe, expect, it } from "vitest";
import { newToken, tokenDigest, tokenMatches } from "../tokens.ts";

describe("tokens", () => {
  it("are 43 base64url characters each", () => {
    // Half of all 32-byte tokens contain a "+" or "/" in plain base64; 64 of them all but surely do.
    for (let index = 0; index < 64; index++) expect(newToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("digest to the standard SHA-256 hex, leading zeros kept", async () => {
    // FIPS 180-2's example: the digest of "abc" has the bytes 0x01 and 0x00 in it.
    expect(await tokenDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("never match a stored digest of another length", async () => {
    const token = newToken();
    const digest = await tokenDigest(token);
    expect(await tokenMatches(token, digest)).toBe(true);
    expect(await tokenMatches(token, `${digest}0`)).toBe(false);
    expect(await tokenMatches(token, digest.slice(0, 32))).toBe(false);
    expect(await tokenMatches(token, "")).toBe(false);
  });
});
