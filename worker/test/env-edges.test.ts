/**
 * The Worker's millisecond settings (worker/env.ts millisecondsOf: RUN_GRACE_MS, DEMO_CHUNK_DELAY_MS):
 * a finite number ≥ 0 is taken as it is, zero included; anything else leaves the caller's default.
 */
import { describe, expect, it } from "vitest";
import { millisecondsOf } from "../env.ts";

describe("millisecondsOf", () => {
  it("takes a finite number of milliseconds ≥ 0, zero and fractions included", () => {
    expect(millisecondsOf("1000")).toBe(1000);
    expect(millisecondsOf("0")).toBe(0);
    expect(millisecondsOf(" 2.5 ")).toBe(2.5);
  });

  it("leaves the default for a setting that is unset, empty, negative, infinite or not a number", () => {
    for (const setting of [undefined, "", "  ", "-1", "Infinity", "1e400", "15s", "NaN"]) {
      expect(millisecondsOf(setting), String(setting)).toBeUndefined();
    }
  });
});
