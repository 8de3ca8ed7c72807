/**
 * The schema interpreter's less common keywords, seen through checkJsonSchema: minItems, maxItems,
 * items, uniqueItems, required, contains, min/maxProperties, propertyNames, anyOf's closest
 * alternative and if/then/else, each at its boundary; the depth bound held when a `$ref` cycle runs
 * through allOf, items, properties, patternProperties, additionalProperties, contains, oneOf, not, if
 * or then, and its exact limit; and what costs a step of the budget and what does not.
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema, formatSchemaIssues } from "../../src/mcp/index.ts";

const check = (schema: unknown, value: unknown) => formatSchemaIssues(checkJsonSchema(schema, value));

const NESTS_TOO_DEEPLY = "the schema or value nests too deeply to check";

/**
 * `{ if, then, else }`, the branches left out when undefined (built from entries: a `then` key in an
 * object literal reads as a thenable to the linter).
 */
function conditional(ifSchema: unknown, thenSchema?: unknown, elseSchema?: unknown): Record<string, unknown> {
  const entries: Array<[string, unknown]> = [["if", ifSchema]];
  if (thenSchema !== undefined) entries.push(["then", thenSchema]);
  if (elseSchema !== undefined) entries.push(["else", elseSchema]);
  return Object.fromEntries(entries);
}

/** `levels` arrays inside each other, the innermost holding `inner`. */
function nestedArrays(levels: number, inner: unknown): unknown {
  let value = inner;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

/** `levels` objects inside each other under the key `a`, the innermost `inner` (`{}` unless given). */
function nestedObjects(levels: number, inner: unknown = {}): unknown {
  let value: unknown = inner;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

/** `levels` schemas inside each other, each the single part of an allOf, the innermost `inner`. */
function nestedAllOf(levels: number, inner: unknown): unknown {
  let schema = inner;
  for (let level = 0; level < levels; level++) schema = { allOf: [schema] };
  return schema;
}

describe("the schema interpreter's counts", () => {
  it("reports fewer items than minItems, and accepts exactly minItems", () => {
    expect(check({ minItems: 2 }, [1])).toBe("expected at least 2 items, got 1");
    expect(check({ minItems: 2 }, [1, 2])).toBe("");
    expect(check({ minItems: 2 }, [1, 2, 3])).toBe("");
  });

  it("reports more items than maxItems, and accepts exactly maxItems", () => {
    expect(check({ maxItems: 2 }, [1, 2, 3])).toBe("expected at most 2 items, got 3");
    expect(check({ maxItems: 2 }, [1, 2])).toBe("");
  });

  it("reports fewer properties than minProperties and more than maxProperties, and accepts the bounds", () => {
    expect(check({ minProperties: 2 }, { a: 1 })).toBe("expected at least 2 properties");
    expect(check({ minProperties: 2 }, { a: 1, b: 2 })).toBe("");
    expect(check({ minProperties: 2 }, { a: 1, b: 2, c: 3 })).toBe("");
    expect(check({ maxProperties: 1 }, { a: 1, b: 2 })).toBe("expected at most 1 properties");
    expect(check({ maxProperties: 1 }, { a: 1 })).toBe("");
    expect(check({ maxProperties: 1 }, {})).toBe("");
  });

  it("reports a property name that breaks propertyNames, at that property", () => {
    expect(check({ propertyNames: { maxLength: 2 } }, { ab: 1, abc: 2 })).toBe(
      "abc: property name: expected at most 2 characters, got 3",
    );
  });
});

describe("items, uniqueItems and required", () => {
  it("checks the first item against a single `items` schema too", () => {
    expect(check({ items: { type: "number" } }, ["x", 1])).toBe("0: expected number, got string");
  });

  it("accepts an array without repeats under uniqueItems, and reports the first repeat", () => {
    expect(check({ uniqueItems: true }, [1, 2, 3])).toBe("");
    expect(check({ uniqueItems: true }, [1, 2, 1])).toBe("2: expected unique items, got a repeat");
  });

  it("ignores an entry of `required` that is not a string", () => {
    expect(check({ required: [1, "a"] }, { a: 0 })).toBe("");
    expect(check({ required: [1, "a"] }, {})).toBe("a: required");
  });
});

describe("anyOf", () => {
  it("reports the issues of the alternative that came closest, wherever it is in the list", () => {
    const schema = { anyOf: [{ required: ["a", "b"] }, { required: ["a"] }] };
    expect(check(schema, {})).toBe("a: required");
  });
});

describe("contains", () => {
  const schema = { contains: { type: "number" } };

  it("accepts an array with at least one matching item, wherever it is", () => {
    expect(check(schema, ["a", 1])).toBe("");
    expect(check(schema, [1, "a"])).toBe("");
  });

  it("reports an array with no matching item", () => {
    expect(check(schema, ["a", "b"])).toBe("expected at least one item matching `contains`");
    expect(check(schema, [])).toBe("expected at least one item matching `contains`");
  });
});

describe("if / then / else", () => {
  const schema = conditional({ type: "number" }, { minimum: 0 }, { type: "string" });

  it("checks a value that matches `if` against `then`", () => {
    expect(check(schema, 5)).toBe("");
    expect(check(schema, -1)).toBe("expected >= 0, got -1");
  });

  it("checks a value that does not match `if` against `else`", () => {
    expect(check(schema, "x")).toBe("");
    expect(check(schema, true)).toBe("expected string, got boolean");
  });

  it("applies `then` alone when there is no `else`, and `else` alone when there is no `then`", () => {
    expect(check(conditional({ type: "number" }, { minimum: 0 }), -1)).toBe("expected >= 0, got -1");
    expect(check(conditional({ type: "number" }, { minimum: 0 }), "x")).toBe("");
    expect(check({ if: { type: "number" }, else: { type: "string" } }, true)).toBe(
      "expected string, got boolean",
    );
    expect(check({ if: { type: "number" }, else: { type: "string" } }, -1)).toBe("");
  });

  it("ignores `then` without `if`", () => {
    const entries: Array<[string, unknown]> = [];
    entries.push(["then", { type: "string" }]);
    expect(check(Object.fromEntries(entries), 1)).toBe("");
  });
});

describe("the depth bound through each way in", () => {
  it("stops a $ref cycle through allOf at the depth bound, not the step budget", () => {
    expect(check({ allOf: [{ $ref: "#" }] }, 1)).toBe(NESTS_TOO_DEEPLY);
  });

  it("stops a $ref cycle through `then` at the depth bound", () => {
    expect(check(conditional(true, { $ref: "#" }), 1)).toBe(NESTS_TOO_DEEPLY);
  });

  it("stops a $ref cycle through `if` at the depth bound (the deepest `if` fails; with no branches that passes)", () => {
    expect(checkJsonSchema({ if: { $ref: "#" } }, 1)).toEqual([]);
  });

  it("counts each level of additionalProperties toward the depth bound", () => {
    const schema = { additionalProperties: { $ref: "#" } };
    expect(check(schema, nestedObjects(10))).toBe("");
    const deep = checkJsonSchema(schema, nestedObjects(40));
    expect(deep).toHaveLength(1);
    expect(deep[0]?.message).toBe(NESTS_TOO_DEEPLY);
  });

  it("counts each level of contains toward the depth bound", () => {
    const schema = { contains: { $ref: "#" } };
    expect(check(schema, nestedArrays(10, 1))).toBe("");
    expect(check(schema, nestedArrays(40, 1))).toBe("expected at least one item matching `contains`");
  });

  it("counts each level of items toward the depth bound", () => {
    const schema = { items: { $ref: "#" } };
    expect(check(schema, nestedArrays(10, 1))).toBe("");
    const deep = checkJsonSchema(schema, nestedArrays(40, 1));
    expect(deep.map((issue) => issue.message)).toEqual([NESTS_TOO_DEEPLY]);
  });

  it("counts each level of properties toward the depth bound", () => {
    const schema = { properties: { a: { $ref: "#" } } };
    expect(check(schema, nestedObjects(10))).toBe("");
    const deep = checkJsonSchema(schema, nestedObjects(40));
    expect(deep.map((issue) => issue.message)).toEqual([NESTS_TOO_DEEPLY]);
  });

  it("counts each level of patternProperties toward the depth bound (trusted patterns)", () => {
    const schema = { patternProperties: { "^a$": { $ref: "#" } } };
    expect(checkJsonSchema(schema, nestedObjects(10), { trustPatterns: true })).toEqual([]);
    const deep = checkJsonSchema(schema, nestedObjects(40), { trustPatterns: true });
    expect(deep.map((issue) => issue.message)).toEqual([NESTS_TOO_DEEPLY]);
  });

  it("counts a propertyNames check one level deeper than its object, up to the depth bound", () => {
    // Each object is checked two levels below its parent (properties, then $ref): the 32nd is at the
    // bound (64), so the name of its key `b` is checked one level past it.
    const schema = { properties: { a: { $ref: "#" } }, propertyNames: { type: "string" } };
    expect(checkJsonSchema(schema, nestedObjects(31, { b: 1 }))).toEqual([]);
    expect(checkJsonSchema(schema, nestedObjects(32, { b: 1 }))).toEqual([
      { path: `${"a.".repeat(32)}b`, message: `property name: ${NESTS_TOO_DEEPLY}` },
    ]);
  });

  it("stops a $ref cycle through oneOf at the depth bound (no level finds a matching alternative)", () => {
    expect(check({ oneOf: [{ $ref: "#" }] }, 1)).toBe(
      "expected exactly one of 1 alternatives to match, 0 did",
    );
  });

  it("stops a $ref cycle through not at the depth bound (the deepest `not` passes, and levels alternate up to the root's pass)", () => {
    expect(checkJsonSchema({ not: { $ref: "#" } }, 1)).toEqual([]);
  });

  it("checks a schema nested 64 levels deep, and refuses one nested 65 levels deep", () => {
    expect(check(nestedAllOf(64, { type: "number" }), "x")).toBe("expected number, got string");
    expect(check(nestedAllOf(65, { type: "number" }), "x")).toBe(NESTS_TOO_DEEPLY);
  });
});

describe("the step budget", () => {
  const TOO_COMPLEX = "the schema is too complex to check (more than 100000 steps)";

  it("spends no step on `true`: 100 001 items under `items: true` are accepted, not refused as too complex", () => {
    expect(check({ items: true }, Array(100_001).fill(0))).toBe("");
  });

  it("spends no step on an absent branch: 60 000 items under `{ if: true }` (no then) are accepted", () => {
    expect(check({ items: { if: true } }, Array(60_000).fill(0))).toBe("");
  });

  it("spends no step on a key that properties does not list, even one named like an Object.prototype member", () => {
    // The root, `a`'s schema and each item are a step each: 100 000 in all, exactly the budget.
    const schema = { properties: { a: { items: {} } } };
    expect(check(schema, { a: Array(99_998).fill(0), toString: 0 })).toBe("");
    expect(check(schema, { a: Array(99_999).fill(0), toString: 0 })).toBe(TOO_COMPLEX);
  });
});

describe("an empty anyOf (invalid JSON Schema, as an untrusted server may send it)", () => {
  it("lets no value match, with an issue instead of a TypeError", () => {
    expect(checkJsonSchema({ anyOf: [] }, 1)).toEqual([
      { path: "", message: "expected one of 0 alternatives to match (anyOf is empty)" },
    ]);
    expect(checkJsonSchema({ type: "object", properties: { a: { anyOf: [] } } }, { a: 1 })).toEqual([
      { path: "a", message: "expected one of 0 alternatives to match (anyOf is empty)" },
    ]);
    expect(checkJsonSchema({ type: "object", properties: { a: { anyOf: [] } } }, {})).toEqual([]);
  });
});
