/**
 * nestsDeeperThan bounds what Wisp stores: it finds nesting past the limit through objects and arrays,
 * dense or sparse — a crafted array with a length of 2³²−1 is walked by the items it has, not by index.
 */
import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "../../src/message/storable-values.ts";

/** `levels` arrays nested in each other around `inner`. */
function nested(levels: number, inner: unknown = 1): unknown {
  let value = inner;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

describe("nestsDeeperThan", () => {
  it("counts arrays and objects alike, up to the limit and one past it", () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan({ a: { b: [{ c: 1 }] } }, 3)).toBe(true);
    expect(nestsDeeperThan({ a: { b: [{ c: 1 }] } }, 4)).toBe(false);
    expect(nestsDeeperThan("text")).toBe(false);
  });

  it("finds a deep item in a long dense array, wherever it sits", () => {
    const items: unknown[] = Array.from({ length: 50_000 }, (_, id) => ({ id }));
    expect(nestsDeeperThan({ items }, 5)).toBe(false);
    items[49_999] = nested(10);
    expect(nestsDeeperThan({ items }, 5)).toBe(true);
  });

  it("walks sparse arrays of the longest length by the items they have", () => {
    const sparse: unknown[] = [];
    sparse[2 ** 32 - 2] = nested(10);
    expect(sparse.length).toBe(2 ** 32 - 1);
    expect(nestsDeeperThan({ metadata: [sparse, sparse, sparse] }, 5)).toBe(true);
    sparse[2 ** 32 - 2] = { shallow: true };
    expect(nestsDeeperThan({ metadata: [sparse, sparse, sparse] }, 5)).toBe(false);
  });
});
