/**
 * checkJsonSchema's root (`false` refuses every value, a schema that is neither object nor boolean
 * checks nothing) and the edge of its step budget.
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema } from "../../src/mcp/json-schema-check.ts";

describe("checkJsonSchema's root schema", () => {
  it("false refuses every value", () => {
    expect(checkJsonSchema(false, 1)).not.toEqual([]);
    expect(checkJsonSchema(true, 1)).toEqual([]);
  });

  it("that is not a schema (null, a string) accepts every value", () => {
    expect(checkJsonSchema(null, 1)).toEqual([]);
    expect(checkJsonSchema("object", { a: 1 })).toEqual([]);
  });
});

describe("checkJsonSchema's step budget", () => {
  const schema = { type: "array", items: { type: "number" } };
  /** `count` items, the last one a string: the array and each item are one step each. */
  const items = (count: number): unknown[] => [...Array.from({ length: count - 1 }, () => 0), "x"];

  it("checks a value that takes exactly 100000 steps, and refuses one that takes one more", () => {
    expect(checkJsonSchema(schema, items(99_999))).toEqual([
      { path: "99998", message: "expected number, got string" },
    ]);
    expect(checkJsonSchema(schema, items(100_000))).toEqual([
      { path: "", message: "the schema is too complex to check (more than 100000 steps)" },
    ]);
  });
});
