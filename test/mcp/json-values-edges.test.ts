/**
 * Deep equality of JSON values as `const`, `enum` and `uniqueItems` use it, at its edges: an array and
 * an object are never equal, even empty or with the same entries by index; arrays differing only in
 * length and objects differing in one value or only by an extra key are not equal either.
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema } from "../../src/mcp/index.ts";
import { equal } from "../../src/mcp/json-values.ts";

describe("equal", () => {
  it("never takes an array for an object", () => {
    expect(equal([], {})).toBe(false);
    expect(equal({ 0: "a" }, ["a"])).toBe(false);
  });

  it("makes const: [] refuse an empty object, and enum: [{}] an empty array", () => {
    expect(checkJsonSchema({ const: [] }, {})).toHaveLength(1);
    expect(checkJsonSchema({ enum: [{}] }, [])).toHaveLength(1);
    expect(checkJsonSchema({ const: [] }, [])).toEqual([]);
  });

  it("makes const: [1] refuse [2] and [1, 2], an array differing in an item or only in its length", () => {
    expect(checkJsonSchema({ const: [1] }, [2])).toHaveLength(1);
    expect(checkJsonSchema({ const: [1] }, [1, 2])).toHaveLength(1);
    expect(checkJsonSchema({ const: [1] }, [1])).toEqual([]);
  });

  it("makes const: { a: 1 } refuse { a: 2 } and { a: 1, b: 2 }, an object differing in a value or only in an extra key", () => {
    expect(checkJsonSchema({ const: { a: 1 } }, { a: 2 })).toHaveLength(1);
    expect(checkJsonSchema({ const: { a: 1 } }, { a: 1, b: 2 })).toHaveLength(1);
    expect(checkJsonSchema({ const: { a: 1, b: 2 } }, { a: 1, b: 3 })).toHaveLength(1);
    expect(checkJsonSchema({ const: { a: 1, b: 2 } }, { b: 2, a: 1 })).toEqual([]);
  });
});
