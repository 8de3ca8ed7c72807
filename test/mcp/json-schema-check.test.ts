/**
 * Wisp's JSON Schema checker for MCP tool inputs: the keywords MCP servers use, described issues with
 * paths, and no code generation. test/mcp/no-code-generation.test.ts runs this file and the client's
 * other tests again in a Node that refuses code generation (WISP_NO_CODE_GENERATION=1 says so).
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema, formatSchemaIssues } from "../../src/mcp/index.ts";

const check = (schema: unknown, value: unknown) => formatSchemaIssues(checkJsonSchema(schema, value));
/** The same for a schema you wrote yourself: its patterns are run. */
const trusted = (schema: unknown, value: unknown) =>
  formatSchemaIssues(checkJsonSchema(schema, value, { trustPatterns: true }));

/** Whether this process may turn strings into code. */
function codeGenerationAllowed(): boolean {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
}

describe("checkJsonSchema", () => {
  it("runs the same whether or not the process may generate code (and the flag really holds when set)", () => {
    expect(codeGenerationAllowed()).toBe(process.env.WISP_NO_CODE_GENERATION !== "1");
    expect(checkJsonSchema({ type: "object", required: ["a"] }, {})).toEqual([
      { path: "a", message: "required" },
    ]);
  });

  it("accepts a value that matches and names each problem with its path otherwise", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", minLength: 2 },
        tags: { type: "array", items: { type: "string" }, maxItems: 2 },
        size: { type: "integer", minimum: 1, maximum: 10 },
      },
      required: ["name"],
      additionalProperties: false,
    };
    expect(check(schema, { name: "ok", tags: ["a"], size: 3 })).toBe("");
    expect(check(schema, { name: "x", tags: ["a", 2, "c"], size: 2.5, extra: true })).toBe(
      "name: expected at least 2 characters, got 1; tags: expected at most 2 items, got 3; tags.1: expected string, got number; size: expected integer, got number; extra: unexpected property",
    );
    expect(check(schema, {})).toBe("name: required");
    expect(check(schema, [])).toBe("expected object, got array");
  });

  it("knows enum, const, pattern, exclusive bounds, multipleOf and uniqueItems", () => {
    expect(check({ enum: ["a", "b"] }, "c")).toBe('expected one of "a", "b", got "c"');
    expect(check({ const: { x: [1] } }, { x: [1] })).toBe("");
    expect(trusted({ type: "string", pattern: "^[a-z]+$" }, "A1")).toBe("expected text matching /^[a-z]+$/");
    // `\a` is an error with the u flag and the letter a without it: read the way it can be read.
    expect(trusted({ type: "string", pattern: "^\\a+$" }, "aa")).toBe("");
    expect(trusted({ type: "string", pattern: "^\\a+$" }, "bb")).toBe("expected text matching /^\\a+$/");
    expect(trusted({ type: "string", pattern: "^.$" }, "😀")).toBe(""); // one code point, two UTF-16 units
    expect(check({ type: "number", exclusiveMinimum: 0 }, 0)).toBe("expected > 0, got 0");
    expect(check({ type: "number", minimum: 0, exclusiveMinimum: true }, 0)).toBe("expected > 0, got 0");
    expect(check({ type: "number", multipleOf: 0.1 }, 0.3)).toBe("");
    expect(check({ type: "number", multipleOf: 2 }, 3)).toBe("expected a multiple of 2, got 3");
    expect(check({ type: "array", uniqueItems: true }, [{ a: 1 }, { a: 1 }])).toBe(
      "1: expected unique items, got a repeat",
    );
  });

  it("follows local $refs, combinators, nullable type lists and tuples", () => {
    const schema = {
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      type: "object",
      properties: {
        at: { $ref: "#/$defs/point" },
        maybe: { type: ["string", "null"] },
        either: { anyOf: [{ type: "string" }, { type: "number" }] },
        one: { oneOf: [{ type: "number" }, { type: "integer" }] },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
        notText: { not: { type: "string" } },
      },
    };
    expect(
      check(schema, { at: { x: 1 }, maybe: null, either: 2, one: 1.5, pair: ["a", 1], notText: 1 }),
    ).toBe("");
    expect(check(schema, { at: {}, maybe: 3, either: true, one: 1, pair: ["a", 1, 2], notText: "t" })).toBe(
      "at.x: required; maybe: expected string or null, got number; either: expected string, got boolean; one: expected exactly one of 2 alternatives to match, 2 did; pair.2: no value is allowed here; notText: matches a schema it must not match",
    );
  });

  it("treats unknown keywords and formats as annotations, and survives a $ref cycle", () => {
    expect(check({ type: "string", format: "email", "x-custom": 1 }, "not an email")).toBe("");
    const cyclic = { $ref: "#" };
    expect(check(cyclic, 1)).toBe("the schema or value nests too deeply to check");
  });

  it("caps the number of issues it reports", () => {
    const schema = { type: "array", items: { type: "string" } };
    expect(
      checkJsonSchema(
        schema,
        Array.from({ length: 100 }, (_, index) => index),
      ),
    ).toHaveLength(20);
  });

  it("refuses a schema whose combinators branch beyond a step budget, instead of checking it for minutes", () => {
    const levels = 18;
    const $defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
    for (let level = 0; level < levels; level++) {
      const next = { $ref: `#/$defs/d${level + 1}` };
      $defs[`d${level}`] = { anyOf: [next, next] };
    }
    const tooComplex = [{ path: "", message: "the schema is too complex to check (more than 100000 steps)" }];
    expect(checkJsonSchema({ $defs, $ref: "#/$defs/d0" }, 1)).toEqual(tooComplex);
    expect(checkJsonSchema({ anyOf: [{ $ref: "#" }, { $ref: "#" }] }, 1)).toEqual(tooComplex);
    expect(check({ $defs, $ref: "#/$defs/d17" }, 1)).toBe("expected string, got number");
  });

  it("reads an unreadable patternProperties regex as deciding nothing, so additionalProperties spares its keys", () => {
    const schema = { patternProperties: { "(?<": { type: "number" } }, additionalProperties: false };
    expect(trusted(schema, { x: "text" })).toBe("");
  });

  it("reports a $ref with bad percent-encoding as an issue instead of throwing", () => {
    const schema = { $defs: { a: { type: "string" } }, properties: { x: { $ref: "#/$defs/%E0" } } };
    expect(checkJsonSchema(schema, { x: 1 })).toEqual([
      { path: "x", message: 'the schema\'s $ref "#/$defs/%E0" cannot be decoded' },
    ]);
  });
});

/**
 * Patterns of an untrusted schema (the default: an MCP server's) are annotations, never run. Each
 * hostile text below would keep its regex busy for many seconds (`^(a+)+$` doubles per `a`: 30 of
 * them and a "!" take about 30 s in Node's first, interpreted run, and over 5 s once compiled), far
 * past vitest's default timeout, which still fails a test whose regex blocked it.
 */
describe("checkJsonSchema's patterns", () => {
  const hostile = "^(a+)+$";
  const slow = `${"a".repeat(30)}!`; // 2^30 steps for /^(a+)+$/

  it("does not run an untrusted schema's pattern: the text passes", () => {
    expect(checkJsonSchema({ type: "string", pattern: hostile }, slow)).toEqual([]);
    expect(check({ type: "string", pattern: "^[a-z]+$" }, "A1")).toBe("");
    for (const pattern of ["^(a|a)*$", "^(a|aa)+$", "^(?:a*)*$", "^(?=(a+)+$)", "^(a*)\\1$"])
      expect(check({ type: "string", pattern }, slow)).toBe("");
    expect(check({ properties: { v: { type: "string", pattern: hostile } } }, { v: slow })).toBe("");
    expect(check({ propertyNames: { pattern: hostile } }, { [slow]: 1 })).toBe("");
  });

  it("leaves a key an untrusted patternProperties regex may name unchecked, by its subschema and by additionalProperties", () => {
    const schema = {
      properties: { known: { type: "number" } },
      patternProperties: { [hostile]: { type: "number" }, "^x-[a-z]+$": { type: "string" } },
      additionalProperties: false,
    };
    expect(check(schema, { [slow]: "not a number", known: 1, "x-tag": 2 })).toBe("");
    // What can still be decided is still checked: `properties`.
    expect(check(schema, { [slow]: 1, known: "one" })).toBe("known: expected number, got string");
  });

  it("enforces a trusted schema's patterns, on long texts too", () => {
    const identifier = { type: "string", pattern: "^[a-z][a-z0-9_]*$" };
    expect(trusted(identifier, `${"a".repeat(500_000)}!`)).toBe("expected text matching /^[a-z][a-z0-9_]*$/");
    expect(trusted(identifier, "a".repeat(500_000))).toBe("");
    const date = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
    expect(trusted(date, "2025-01-31")).toBe("");
    expect(trusted(date, "2025-1-31")).toBe("expected text matching /^\\d{4}-\\d{2}-\\d{2}$/");
    const keys = { patternProperties: { "^[a-z]+$": { type: "number" } }, additionalProperties: false };
    expect(trusted(keys, { ok: 1, bad: "x", Upper: 1 })).toBe(
      "bad: expected number, got string; Upper: unexpected property",
    );
  });

  it("runs every pattern as written for a trusted schema (trustPatterns: your own)", () => {
    const schema = { type: "string", pattern: hostile };
    expect(checkJsonSchema(schema, "aaaa!", { trustPatterns: true })).toEqual([
      { path: "", message: "expected text matching /^(a+)+$/" },
    ]);
    expect(checkJsonSchema(schema, "aaaa", { trustPatterns: true })).toEqual([]);
    expect(checkJsonSchema(schema, "aaaa!")).toEqual([]);
    const keys = { patternProperties: { "^(x|y)+$": { type: "number" } }, additionalProperties: false };
    expect(formatSchemaIssues(checkJsonSchema(keys, { xy: "1", z: 1 }, { trustPatterns: true }))).toBe(
      "xy: expected number, got string; z: unexpected property",
    );
  });
});
