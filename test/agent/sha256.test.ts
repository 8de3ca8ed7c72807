/**
 * Wisp's own SHA-256, used for approval digests where the context has no Web Crypto (a page that is not
 * a secure context): the standard's test vectors, and Web Crypto's answer on every length around the
 * block boundaries and on random inputs.
 */
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/agent/sha256.ts";

const hex = (bytes: Uint8Array | ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe("sha256", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
  ])("hashes %j as the standard says", (input, digest) => {
    expect(hex(sha256(text(input)))).toBe(digest);
  });

  it("gives Web Crypto's digest for every length from 0 to 300 bytes and for random inputs", async () => {
    const lengths = [...Array.from({ length: 301 }, (_, length) => length), 1000, 4096, 65_536];
    for (const length of lengths) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      expect(hex(sha256(data)), `length ${length}`).toBe(hex(await crypto.subtle.digest("SHA-256", data)));
    }
  });
});
