/** checkJsonSchema's root: `false` refuses every value, and a schema that is neither object nor boolean checks nothing. */
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
