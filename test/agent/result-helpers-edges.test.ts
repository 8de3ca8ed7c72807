/**
 * `tryCatch` with code that returns nothing: `undefined` (and `null`) are values, not thenables, so the
 * Result is ok with them (test/result-helpers.test.ts covers the rest).
 */
import { describe, expect, it } from "vitest";
import { ok, tryCatch } from "../../src/index.ts";

describe("tryCatch", () => {
  it("code that returns undefined or null is ok with it", () => {
    expect(tryCatch(() => undefined)).toEqual(ok(undefined));
    expect(tryCatch(() => null)).toEqual(ok(null));
  });
});
