/**
 * Local `$ref`s in Wisp's JSON Schema checker (src/mcp/schema-refs.ts) where the other tests do not
 * look: JSON Pointer escapes (`~1` for `/`, `~0` for `~`), a `$ref` to a boolean schema, one whose
 * path runs on past where the schema ends, and one that is not local (no `#`), which constrains nothing.
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema, formatSchemaIssues } from "../../src/mcp/index.ts";

const check = (schema: unknown, value: unknown) => formatSchemaIssues(checkJsonSchema(schema, value));

/** An object schema whose property `n` is `{ $ref: ref }`, with `defs` as its `$defs`. */
const refAt = (ref: string, defs: Record<string, unknown> = {}) => ({
  type: "object",
  properties: { n: { $ref: ref } },
  $defs: defs,
});

describe("local $refs", () => {
  it("reads ~1 in a $ref as / in the key", () => {
    const schema = refAt("#/$defs/a~1b", { "a/b": { type: "string" }, ab: true });
    expect(check(schema, { n: "x" })).toBe("");
    expect(check(schema, { n: 5 })).toBe("n: expected string, got number");
  });

  it("reads ~0 in a $ref as ~ in the key", () => {
    const schema = refAt("#/$defs/a~0b", { "a~b": { type: "string" }, ab: true });
    expect(check(schema, { n: "x" })).toBe("");
    expect(check(schema, { n: 5 })).toBe("n: expected string, got number");
  });

  it("applies a boolean schema a $ref points to", () => {
    expect(check(refAt("#/$defs/never", { never: false }), { n: 5 })).toBe("n: no value is allowed here");
    expect(check(refAt("#/$defs/always", { always: true }), { n: 5 })).toBe("");
  });

  it("takes a $ref whose path runs on past where the schema ends as pointing nowhere, without throwing", () => {
    expect(checkJsonSchema(refAt("#/$defs/missing/deeper"), { n: 5 })).toEqual([]);
    expect(checkJsonSchema(refAt("#/type/deeper"), { n: 5 })).toEqual([]);
  });

  it("constrains nothing with a $ref that is not local (no #), rather than reading it as the root", () => {
    expect(checkJsonSchema(refAt("other.json"), { n: 5 })).toEqual([]);
    expect(checkJsonSchema(refAt("https://example.com/schema.json"), { n: 5 })).toEqual([]);
  });
});

describe("$refs that are no JSON Pointer", () => {
  it("constrain nothing: a $anchor name (#num) is not read as the root schema", () => {
    const schema = refAt("#num", { num: { $anchor: "num", type: "number" } });
    expect(checkJsonSchema(schema, { n: 5 })).toEqual([]);
    expect(checkJsonSchema(schema, { n: "five" })).toEqual([]);
  });

  it("constrain nothing: a fragment before the first / (#x/$defs/num) is not dropped", () => {
    expect(checkJsonSchema(refAt("#x/$defs/num", { num: { type: "number" } }), { n: "five" })).toEqual([]);
  });

  it("# alone is the root schema, and #/ is the root's property named by the empty string", () => {
    const root = { type: "object", properties: { n: { $ref: "#" } } };
    expect(check(root, { n: 5 })).toBe("n: expected object, got number");
    expect(check(root, { n: {} })).toBe("");
    const empty = { type: "object", properties: { n: { $ref: "#/" } }, "": { type: "string" } };
    expect(check(empty, { n: "x" })).toBe("");
    expect(check(empty, { n: 5 })).toBe("n: expected string, got number");
  });
});

describe("$refs into another document", () => {
  it("constrain nothing: a relative ./$defs/num is not read as this schema's #/$defs/num", () => {
    const schema = refAt("./$defs/num", { num: { type: "number" } });
    expect(checkJsonSchema(schema, { n: "five" })).toEqual([]);
    expect(checkJsonSchema(refAt("#/$defs/num", { num: { type: "number" } }), { n: "five" })).not.toEqual([]);
  });
});
