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
 * @module
 */

import { type PatternShape, patternShape, worstCaseSteps } from "./pattern-cost.ts";

/** One thing wrong with a value: where (`items.2.name`, `""` for the value itself) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** How deep schemas and values may nest before the check gives up on them (a `$ref` cycle, say). */
const MAX_DEPTH = 64;
/** At most this many issues are reported; a model needs the first few, not thousands. */
const MAX_ISSUES = 20;
/**
 * At most this many schema-against-value checks per call: `MAX_DEPTH` bounds how deep a hostile
 * schema goes (`{ anyOf: [{ $ref: "#" }, { $ref: "#" }] }`), not how wide, so work is bounded too.
 */
const MAX_STEPS = 100_000;
/** The one issue reported when {@link MAX_STEPS} ran out: no partial verdict is trusted then. */
const TOO_COMPLEX: SchemaIssue = {
  path: "",
  message: `the schema is too complex to check (more than ${MAX_STEPS} steps)`,
};

/**
 * The most regex work (in steps of pattern-cost.ts's bound) one call may spend on the patterns of an
 * untrusted schema; patterns past it are not enforced. Measured in Node, a step of the bound costs at
 * most about 0.3 ns (the bound overstates most patterns' real work), so this is a few milliseconds at
 * worst (`x*y` on 1 580 x's, the whole budget's worth: 3 ms). It keeps `^[a-z][a-z0-9_]*$` enforced on texts of two million characters, `x*y` and
 * `^a*a*$` (quadratic) up to about 1 500, `^[^@]+@[^@]+\.[^@]+$` (cubic) up to about 130.
 */
const MAX_PATTERN_STEPS = 10_000_000;

/** Options of {@link checkJsonSchema}. */
export interface CheckJsonSchemaOptions {
  /**
   * Run every `pattern` and `patternProperties` regex as written, whatever its cost: only for a
   * schema you wrote yourself (trusted code). Default false: a pattern is run only when its worst
   * case is known to be small (see docs/mcp.md), which is what Wisp does for MCP servers' schemas.
   */
  trustPatterns?: boolean;
}

type Schema = boolean | { readonly [key: string]: unknown };

/** A pattern as compiled once per call: its RegExp (undefined when unreadable) and its shape. */
interface CompiledPattern {
  regex: RegExp | undefined;
  shape: PatternShape | undefined;
}

/** What the walks of one call share about patterns. */
interface Patterns {
  trusted: boolean;
  /** Regex work left, in steps of pattern-cost.ts's bound. */
  steps: number;
  compiled: Map<string, CompiledPattern>;
}

interface Walk {
  root: Schema;
  issues: SchemaIssue[];
  /** Shared by the walks of one call, the combinators' inner walks included. */
  budget: { steps: number };
  patterns: Patterns;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON type name of a value (`integer` for whole numbers). */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

/** Deep equality of JSON values (for `enum`, `const`, `uniqueItems`). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => equal(item, b[index]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => Object.hasOwn(b, key) && equal((a as never)[key], (b as never)[key]))
  );
}

const join = (path: string, key: string | number): string => (path === "" ? String(key) : `${path}.${key}`);
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** One JSON Pointer segment of a `$ref`, unescaped; undefined for bad percent-encoding (`%E0`). */
function pointerKey(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return decoded.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/name`, `#/definitions/name`, JSON Pointer escapes):
 * undefined for one that points nowhere (or elsewhere), `"malformed"` for one that cannot be decoded.
 */
function resolveRef(root: Schema, ref: string): Schema | undefined | "malformed" {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = pointerKey(raw);
    if (key === undefined) return "malformed";
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return typeof node === "boolean" || isObject(node) ? node : undefined;
}

/** Issues of `value` against `schema`, collected into a fresh list (for the combinators). */
function issuesOf(walk: Walk, schema: unknown, value: unknown, path: string, depth: number): SchemaIssue[] {
  const inner: Walk = { root: walk.root, issues: [], budget: walk.budget, patterns: walk.patterns };
  check(inner, schema, value, path, depth);
  return inner.issues;
}

function report(walk: Walk, path: string, message: string): void {
  if (walk.issues.length < MAX_ISSUES) walk.issues.push({ path, message });
}

function checkType(walk: Walk, schema: Record<string, unknown>, value: unknown, path: string): boolean {
  const { type } = schema;
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type.map(String) : undefined;
  if (types === undefined || types.some((name) => matchesType(value, name))) return true;
  report(
    walk,
    path,
    `expected ${types.join(" or ")}, got ${typeOf(value) === "integer" ? "number" : typeOf(value)}`,
  );
  return false;
}

function checkValue(walk: Walk, schema: Record<string, unknown>, value: unknown, path: string): void {
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => equal(option, value)))
    report(walk, path, `expected one of ${schema.enum.map(shown).join(", ")}, got ${shown(value)}`);
  if ("const" in schema && !equal(schema.const, value))
    report(walk, path, `expected ${shown(schema.const)}, got ${shown(value)}`);
}

function checkString(walk: Walk, schema: Record<string, unknown>, value: string, path: string): void {
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength)
    report(walk, path, `expected at least ${schema.minLength} characters, got ${length}`);
  if (typeof schema.maxLength === "number" && length > schema.maxLength)
    report(walk, path, `expected at most ${schema.maxLength} characters, got ${length}`);
  if (typeof schema.pattern === "string" && matches(walk.patterns, schema.pattern, value) === false)
    report(walk, path, `expected text matching /${schema.pattern}/`);
}

function checkNumber(walk: Walk, schema: Record<string, unknown>, value: number, path: string): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (typeof minimum === "number" && (value < minimum || (exclusiveMinimum === true && value === minimum)))
    report(walk, path, `expected ${exclusiveMinimum === true ? ">" : ">="} ${minimum}, got ${value}`);
  if (typeof maximum === "number" && (value > maximum || (exclusiveMaximum === true && value === maximum)))
    report(walk, path, `expected ${exclusiveMaximum === true ? "<" : "<="} ${maximum}, got ${value}`);
  if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum)
    report(walk, path, `expected > ${exclusiveMinimum}, got ${value}`);
  if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum)
    report(walk, path, `expected < ${exclusiveMaximum}, got ${value}`);
  if (typeof multipleOf === "number" && multipleOf > 0) {
    const quotient = value / multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9)
      report(walk, path, `expected a multiple of ${multipleOf}, got ${value}`);
  }
}

function checkArray(
  walk: Walk,
  schema: Record<string, unknown>,
  value: unknown[],
  path: string,
  depth: number,
): void {
  const { minItems, maxItems, items, prefixItems, contains } = schema;
  if (typeof minItems === "number" && value.length < minItems)
    report(walk, path, `expected at least ${minItems} items, got ${value.length}`);
  if (typeof maxItems === "number" && value.length > maxItems)
    report(walk, path, `expected at most ${maxItems} items, got ${value.length}`);
  const prefix = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : [];
  const rest = Array.isArray(items) ? schema.additionalItems : items;
  value.forEach((item, index) => {
    const itemSchema = index < prefix.length ? prefix[index] : rest;
    if (itemSchema !== undefined) check(walk, itemSchema, item, join(path, index), depth + 1);
  });
  if (schema.uniqueItems === true) {
    const duplicate = value.findIndex((item, index) =>
      value.slice(0, index).some((other) => equal(item, other)),
    );
    if (duplicate !== -1) report(walk, join(path, duplicate), "expected unique items, got a repeat");
  }
  if (
    contains !== undefined &&
    !value.some((item) => issuesOf(walk, contains, item, path, depth + 1).length === 0)
  )
    report(walk, path, "expected at least one item matching `contains`");
}

function checkObject(
  walk: Walk,
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  path: string,
  depth: number,
): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  const keys = Object.keys(value);
  if (Array.isArray(schema.required)) {
    for (const name of schema.required)
      if (typeof name === "string" && !Object.hasOwn(value, name)) report(walk, join(path, name), "required");
  }
  if (typeof schema.minProperties === "number" && keys.length < schema.minProperties)
    report(walk, path, `expected at least ${schema.minProperties} properties`);
  if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties)
    report(walk, path, `expected at most ${schema.maxProperties} properties`);
  for (const key of keys) {
    const child = join(path, key);
    if (schema.propertyNames !== undefined)
      for (const issue of issuesOf(walk, schema.propertyNames, key, child, depth + 1))
        report(walk, child, `property name: ${issue.message}`);
    let matched = Object.hasOwn(properties, key);
    let undecided = false;
    if (matched) check(walk, properties[key], value[key], child, depth + 1);
    for (const [source, patternSchema] of patterns) {
      const match = matches(walk.patterns, source, key);
      if (match === undefined) undecided = true;
      else if (match) {
        matched = true;
        check(walk, patternSchema, value[key], child, depth + 1);
      }
    }
    // A key a pattern may or may not name is not "additional" for sure: leave it unchecked.
    if (!matched && !undecided && schema.additionalProperties !== undefined) {
      if (schema.additionalProperties === false) report(walk, child, "unexpected property");
      else check(walk, schema.additionalProperties, value[key], child, depth + 1);
    }
  }
}

/**
 * A schema's pattern as a RegExp: with the `u` flag when it reads so (JSON Schema's patterns are
 * Unicode-aware), else without (patterns written for plain ECMA-262, such as `\a` for the letter
 * a); undefined for one this runtime cannot read at all, which then constrains nothing. Its shape
 * (for the cost bound) is read the same way the engine reads it.
 */
function compilePattern(source: string): CompiledPattern {
  for (const unicode of [true, false]) {
    try {
      const regex = new RegExp(source, unicode ? "u" : "");
      return { regex, shape: patternShape(source, unicode) };
    } catch {
      // try the next reading
    }
  }
  return { regex: undefined, shape: undefined };
}

/**
 * Whether `text` matches the pattern, or undefined when that is not decided: a pattern this runtime
 * cannot read, or (unless the schema is trusted) one whose worst case is unknown or does not fit the
 * regex budget left. Nothing is run that could take longer than that budget.
 */
function matches(patterns: Patterns, source: string, text: string): boolean | undefined {
  let compiled = patterns.compiled.get(source);
  if (compiled === undefined) {
    compiled = compilePattern(source);
    patterns.compiled.set(source, compiled);
  }
  const { regex, shape } = compiled;
  if (regex === undefined) return undefined;
  if (!patterns.trusted) {
    const cost = shape === undefined ? Number.POSITIVE_INFINITY : worstCaseSteps(shape, text.length);
    if (cost > patterns.steps) return undefined;
    patterns.steps -= cost;
  }
  try {
    return regex.test(text);
  } catch {
    return undefined; // an engine out of backtracking stack: the checker never throws
  }
}

function checkCombinators(
  walk: Walk,
  schema: Record<string, unknown>,
  value: unknown,
  path: string,
  depth: number,
): void {
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) check(walk, part, value, path, depth + 1);
  if (Array.isArray(schema.anyOf)) {
    const results = schema.anyOf.map((part) => issuesOf(walk, part, value, path, depth + 1));
    if (!results.some((issues) => issues.length === 0)) {
      const closest = results.reduce((best, issues) => (issues.length < best.length ? issues : best));
      for (const issue of closest) report(walk, issue.path, issue.message);
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const passing = schema.oneOf.filter((part) => issuesOf(walk, part, value, path, depth + 1).length === 0);
    if (passing.length !== 1)
      report(
        walk,
        path,
        `expected exactly one of ${schema.oneOf.length} alternatives to match, ${passing.length} did`,
      );
  }
  if (schema.not !== undefined && issuesOf(walk, schema.not, value, path, depth + 1).length === 0)
    report(walk, path, "matches a schema it must not match");
  if (schema.if !== undefined) {
    const branch = issuesOf(walk, schema.if, value, path, depth + 1).length === 0 ? schema.then : schema.else;
    if (branch !== undefined) check(walk, branch, value, path, depth + 1);
  }
}

function checkRef(walk: Walk, ref: string, value: unknown, path: string, depth: number): void {
  const target = resolveRef(walk.root, ref);
  if (target === "malformed") report(walk, path, `the schema's $ref ${shown(ref)} cannot be decoded`);
  else if (target !== undefined) check(walk, target, value, path, depth + 1);
}

function check(walk: Walk, schema: unknown, value: unknown, path: string, depth: number): void {
  if (schema === true || schema === undefined || walk.budget.steps > MAX_STEPS) return;
  walk.budget.steps++;
  if (schema === false) {
    report(walk, path, "no value is allowed here");
    return;
  }
  if (!isObject(schema)) return;
  if (depth > MAX_DEPTH) {
    report(walk, path, "the schema or value nests too deeply to check");
    return;
  }
  if (typeof schema.$ref === "string") checkRef(walk, schema.$ref, value, path, depth);
  checkValue(walk, schema, value, path);
  if (checkType(walk, schema, value, path)) {
    if (typeof value === "string") checkString(walk, schema, value, path);
    else if (typeof value === "number") checkNumber(walk, schema, value, path);
    else if (Array.isArray(value)) checkArray(walk, schema, value, path, depth);
    else if (isObject(value)) checkObject(walk, schema, value, path, depth);
  }
  checkCombinators(walk, schema, value, path, depth);
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
