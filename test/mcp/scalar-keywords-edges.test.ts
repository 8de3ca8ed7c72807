/**
 * The scalar keywords of Wisp's JSON Schema checker (src/mcp/scalar-keywords.ts) where the other tests
 * do not look: `const` refused with what was expected, `maxLength` at and past its bound (in code
 * points), `maximum` and `minimum` with and without the old boolean `exclusiveMaximum`/`exclusiveMinimum`,
 * the numeric ones, and a value of the wrong type, refused for its type alone.
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema, formatSchemaIssues } from "../../src/mcp/index.ts";

const check = (schema: unknown, value: unknown) => formatSchemaIssues(checkJsonSchema(schema, value));

describe("scalar keywords", () => {
  it("refuses a value other than const, naming both", () => {
    expect(check({ const: 3 }, 3)).toBe("");
    expect(check({ const: 3 }, 4)).toBe("expected 3, got 4");
  });

  it("takes a string of exactly maxLength code points and refuses a longer one", () => {
    const schema = { type: "string", maxLength: 2 };
    expect(check(schema, "ab")).toBe("");
    expect(check(schema, "😀😀")).toBe("");
    expect(check(schema, "a")).toBe("");
    expect(check(schema, "abc")).toBe("expected at most 2 characters, got 3");
  });

  it("takes maximum itself unless exclusiveMaximum is true, and says which bound was passed", () => {
    expect(check({ type: "number", maximum: 10 }, 10)).toBe("");
    expect(check({ type: "number", maximum: 10 }, 11)).toBe("expected <= 10, got 11");
    const exclusive = { type: "number", maximum: 10, exclusiveMaximum: true };
    expect(check(exclusive, 9)).toBe("");
    expect(check(exclusive, 10)).toBe("expected < 10, got 10");
    expect(check(exclusive, 11)).toBe("expected < 10, got 11");
    expect(check({ type: "number", maximum: 10, exclusiveMaximum: false }, 10)).toBe("");
  });

  it("refuses a number at or past a numeric exclusiveMaximum", () => {
    const schema = { type: "number", exclusiveMaximum: 5 };
    expect(check(schema, 4.5)).toBe("");
    expect(check(schema, 5)).toBe("expected < 5, got 5");
    expect(check(schema, 6)).toBe("expected < 5, got 6");
  });

  it("takes minimum itself unless exclusiveMinimum is true, and says which bound was passed", () => {
    expect(check({ type: "number", minimum: 10 }, 10)).toBe("");
    expect(check({ type: "number", minimum: 10 }, 9)).toBe("expected >= 10, got 9");
    const exclusive = { type: "number", minimum: 10, exclusiveMinimum: true };
    expect(check(exclusive, 11)).toBe("");
    expect(check(exclusive, 10)).toBe("expected > 10, got 10");
    expect(check(exclusive, 9)).toBe("expected > 10, got 9");
    expect(check({ type: "number", minimum: 10, exclusiveMinimum: false }, 10)).toBe("");
  });

  it("refuses a number at or below a numeric exclusiveMinimum, and takes one above it", () => {
    const schema = { type: "number", exclusiveMinimum: 5 };
    expect(check(schema, 5.5)).toBe("");
    expect(check(schema, 5)).toBe("expected > 5, got 5");
    expect(check(schema, 4)).toBe("expected > 5, got 4");
  });

  it("reports a value of the wrong type for its type only, not for the keywords of the type it has", () => {
    expect(check({ type: "string", minimum: 10 }, 5)).toBe("expected string, got number");
    expect(check({ type: "number", minLength: 3 }, "a")).toBe("expected number, got string");
  });

  it("ignores a multipleOf that is not positive", () => {
    expect(check({ type: "number", multipleOf: -2 }, 3)).toBe("");
    expect(check({ type: "number", multipleOf: 0 }, 3)).toBe("");
  });

  it("takes a number up to 1e-9 (inclusive) away from a multiple of multipleOf, and refuses one further", () => {
    expect(check({ type: "number", multipleOf: 1 }, 1e-9)).toBe("");
    expect(check({ type: "number", multipleOf: 1 }, 1e-8)).toBe("expected a multiple of 1, got 1e-8");
  });
});
