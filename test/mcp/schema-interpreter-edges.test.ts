/**
 * The schema interpreter's less common keywords, seen through checkJsonSchema: minItems, contains,
 * min/maxProperties, propertyNames and if/then/else, each at its boundary; and the depth bound held
 * when a `$ref` cycle runs through allOf, additionalProperties, contains, if or then.
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

/** `levels` objects inside each other under the key `a`, the innermost `{}`. */
function nestedObjects(levels: number): unknown {
  let value: unknown = {};
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

describe("the schema interpreter's counts", () => {
  it("reports fewer items than minItems, and accepts exactly minItems", () => {
    expect(check({ minItems: 2 }, [1])).toBe("expected at least 2 items, got 1");
    expect(check({ minItems: 2 }, [1, 2])).toBe("");
    expect(check({ minItems: 2 }, [1, 2, 3])).toBe("");
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
});
