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
 * timeout; the event loop itself waits. So by default a pattern is run only when its worst case is
 * known to be small: it must be a plain sequence of single-character atoms, each maybe quantified (no
 * groups, alternation, lookarounds or backreferences: see pattern-cost.ts), and the bound of its work
 * on the text at hand must fit what is left of a per-call budget of {@link MAX_PATTERN_STEPS} steps
 * (a few milliseconds). A pattern that is not run is not enforced, in either direction:
 *
 * - `pattern`: the text passes. The server still validates its own inputs, and an `outputSchema`'s
 *   pattern only shapes what the model reads; refusing a value over a regex Wisp cannot afford to run
 *   would make a server's tool unusable for nothing.
 * - `patternProperties`: whether the pattern names the key is undecided, so neither its subschema
 *   nor `additionalProperties` is applied to that key's value (applying `additionalProperties: false`
 *   would refuse a key the server allows). Keys listed in `properties`, and keys another pattern
 *   decides, are checked as usual.
 *
 * Rejecting groups outright is blunt (`^(\w+\.)*\w+$` is not enforced), but the alternative,
 * judging which groups are safe, is where ReDoS checkers go wrong; a bound that is sound for
 * everything it lets through is worth more here than coverage. A schema you wrote yourself is trusted
 * code like the rest of your program: `{ trustPatterns: true }` runs every pattern as written.
 *
 * The checker's parts: schema-interpreter.ts (the walk and the keywords that walk into a value),
 * scalar-keywords.ts, schema-patterns.ts, schema-refs.ts, schema-walk.ts and json-values.ts.
 *
 * @module
 */

import { isObject, type Schema } from "./json-values.ts";
import { check, MAX_STEPS } from "./schema-interpreter.ts";
import { MAX_PATTERN_STEPS, type Patterns } from "./schema-patterns.ts";
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
   * schema you wrote yourself (trusted code). Default false: a pattern is run only when its worst
   * case is known to be small (see docs/mcp.md), which is what Wisp does for MCP servers' schemas.
   */
  trustPatterns?: boolean;
}

/**
 * Checks `value` against a JSON Schema (the subset above) and returns what is wrong, at most 20
 * issues; an empty list means it passes. A schema that would take more than 100 000 steps to check
 * (a hostile one) gives the single issue "the schema is too complex to check": the value is refused,
 * not checked for minutes. Never throws, never generates code.
 *
 * A `pattern` (or `patternProperties` regex) is enforced only when its worst case on the text at
 * hand is known to be small — a sequence of single-character atoms, each maybe quantified, within a
 * budget of regex work per call — since a regex such as `^(a+)+$` can block the event loop for
 * minutes and nothing can interrupt it. Other patterns are not enforced: see the module's notes.
 * Pass `{ trustPatterns: true }` for a schema you wrote yourself to enforce every pattern.
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
  const patterns: Patterns = {
    trusted: options.trustPatterns === true,
    steps: MAX_PATTERN_STEPS,
    compiled: new Map(),
  };
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
