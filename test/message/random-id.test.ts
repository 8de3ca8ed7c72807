/**
 * Ids in every context: `crypto.randomUUID` exists only in secure contexts (https, localhost), so a page
 * served over plain http from a LAN address has none, and ids are made from `crypto.getRandomValues`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { randomId, uuidFromRandomBytes } from "../../src/message/random-id.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("randomId", () => {
  it("is crypto.randomUUID where the context has it", () => {
    const spy = vi.spyOn(crypto, "randomUUID");
    expect(randomId()).toMatch(UUID_V4);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it("without crypto.randomUUID (a non-secure page), is a version 4 UUID from random bytes", () => {
    const { getRandomValues } = crypto;
    vi.stubGlobal("crypto", { getRandomValues: getRandomValues.bind(crypto) });
    expect("randomUUID" in globalThis.crypto).toBe(false);
    const ids = Array.from({ length: 2000 }, () => randomId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sets the version and variant bits whatever the random bytes are", () => {
    const spy = vi.spyOn(crypto, "getRandomValues").mockImplementation((array) => {
      new Uint8Array(array.buffer).fill(0xff);
      return array;
    });
    expect(uuidFromRandomBytes()).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    spy.mockImplementation((array) => {
      new Uint8Array(array.buffer).fill(0);
      return array;
    });
    expect(uuidFromRandomBytes()).toBe("00000000-0000-4000-8000-000000000000");
    spy.mockRestore();
  });
});
