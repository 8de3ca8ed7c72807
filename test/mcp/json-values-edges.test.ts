/**
 * Deep equality of JSON values as `const`, `enum` and `uniqueItems` use it, at its edge: an array and
 * an object are never equal, even empty or with the same entries by index.
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
});
