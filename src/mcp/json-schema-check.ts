/**
 * A JSON Schema checker for the subset MCP tools use, interpreted directly — no code is generated
 * (no `eval`, no `new Function`), so it runs where code generation is refused (workerd,
 * `node --disallow-code-generation-from-strings`, a strict CSP). Keywords it knows: `type` (one or a
 * list, `integer` included), `enum`, `const`, `properties`, `required`, `additionalProperties`,
 * `patternProperties`, `propertyNames`, `minProperties`/`maxProperties`, `items` (a schema or, draft 7
 * style, a list), `prefixItems`, `minItems`/`maxItems`, `uniqueItems`, `contains`, string lengths,
 * `pattern`, number bounds (both exclusive styles), `multipleOf`, `allOf`/`anyOf`/`oneOf`/`not`,
 * `if`/`then`/`else`, and local `$ref`s (`#`, `#/$defs/…`, `#/definitions/…`). Unknown keywords,
 * `format` among them, are annotations and pass.
 *
 * `pattern` and `patternProperties` are regexes, and a regex from an MCP server is untrusted code:
 * `^(a+)+$` against `"aaaa…a!"` keeps a backtracking engine busy for a time that doubles with each
 * `a`, and a running `RegExp#test` cannot be stopped — not by the run's signal, not by the call's
 * timeout; the event loop itself waits. So by default a pattern is an annotation, never run, and not
 * enforced in either direction:
 *
 * - `pattern`: the text passes. The server validates its own inputs (and answers an error the model
 *   reads), and an `outputSchema`'s pattern only shapes what the model reads.
 * - `patternProperties`: whether the pattern names the key is undecided, so neither its subschema
 *   nor `additionalProperties` is applied to that key's value (applying `additionalProperties: false`
 *   would refuse a key the server allows). Keys listed in `properties` are checked as usual.
 *
 * (Issue 41 replaced a bound on each pattern's worst-case work, which enforced plain sequences of
 * quantified single-character atoms within a per-call budget: 0.7 KB gzip and a regex reader whose
 * every mistake would be a ReDoS hole, for checks the server makes anyway.) A schema you wrote
 * yourself is trusted code like the rest of your program: `{ trustPatterns: true }` runs every pattern
 * as written.
 *
 * The checker's parts: schema-interpreter.ts (the walk and the keywords that walk into a value),
 * scalar-keywords.ts, schema-patterns.ts, schema-refs.ts, schema-walk.ts and json-values.ts.
 *
 * @module
 */

import { isObject, type Schema } from "./json-values.ts";
import { check, MAX_STEPS } from "./schema-interpreter.ts";
import type { Patterns } from "./schema-patterns.ts";
import type { SchemaIssue, Walk } from "./schema-walk.ts";

export type { SchemaIssue } from "./schema-walk.ts";

/** The one issue reported when {@link MAX_STEPS} ran out: no partial verdict is trusted then. */
const TOO_COMPLEX: SchemaIssue = {
  path: "",
  message: `the schema is too complex to check (more than ${MAX_STEPS} steps)`,
};

/** Options of {@link checkJsonSchema}. */
export interface CheckJsonSchemaOptions {
  /**
   * Run every `pattern` and `patternProperties` regex as written, whatever its cost: only for a
   * schema you wrote yourself (trusted code). Default false: patterns are annotations, never run (see
   * docs/mcp.md), which is what Wisp does for MCP servers' schemas.
   */
  trustPatterns?: boolean;
}

/**
 * Checks `value` against a JSON Schema (the subset above) and returns what is wrong, at most 20
 * issues; an empty list means it passes. A schema that would take more than 100 000 steps to check
 * (a hostile one) gives the single issue "the schema is too complex to check": the value is refused,
 * not checked for minutes. Never throws, never generates code.
 *
 * A `pattern` (or `patternProperties` regex) is not run by default, since a regex such as `^(a+)+$`
 * can block the event loop for minutes and nothing can interrupt it: see the module's notes. Pass
 * `{ trustPatterns: true }` for a schema you wrote yourself to enforce every pattern.
 *
 * @example
 * ```ts
 * checkJsonSchema({ type: "object", properties: { a: { type: "number" } }, required: ["a"] }, { a: "1" });
 * // → [{ path: "a", message: "expected number, got string" }]
 * ```
 */
export function checkJsonSchema(
  schema: unknown,
  value: unknown,
  options: CheckJsonSchemaOptions = {},
): SchemaIssue[] {
  const root: Schema = typeof schema === "boolean" || isObject(schema) ? schema : true;
  const patterns: Patterns = { trusted: options.trustPatterns === true, compiled: new Map() };
  const walk: Walk = { root, issues: [], budget: { steps: 0 }, patterns };
  check(walk, root, value, "", 0);
  return walk.budget.steps > MAX_STEPS ? [{ ...TOO_COMPLEX }] : walk.issues;
}

/** Issues as one line a model can act on: `a: expected number, got string; b: required`. */
export function formatSchemaIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`))
    .join("; ");
}
