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
 * @module
 */

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

type Schema = boolean | { readonly [key: string]: unknown };

interface Walk {
  root: Schema;
  issues: SchemaIssue[];
  /** Shared by the walks of one call, the combinators' inner walks included. */
  budget: { steps: number };
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
  const inner: Walk = { root: walk.root, issues: [], budget: walk.budget };
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
  if (typeof schema.pattern === "string") {
    const pattern = safePattern(schema.pattern);
    if (pattern !== undefined && !pattern.test(value))
      report(walk, path, `expected text matching /${schema.pattern}/`);
  }
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
    if (matched) check(walk, properties[key], value[key], child, depth + 1);
    for (const [source, patternSchema] of patterns) {
      if (safePattern(source)?.test(key)) {
        matched = true;
        check(walk, patternSchema, value[key], child, depth + 1);
      }
    }
    if (!matched && schema.additionalProperties !== undefined) {
      if (schema.additionalProperties === false) report(walk, child, "unexpected property");
      else check(walk, schema.additionalProperties, value[key], child, depth + 1);
    }
  }
}

/**
 * A schema's pattern as a RegExp: with the `u` flag when it reads so (JSON Schema's patterns are
 * Unicode-aware), else without (patterns written for plain ECMA-262, such as `\a` for the letter
 * a); undefined for one this runtime cannot read at all, which then constrains nothing.
 */
function safePattern(source: string): RegExp | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(source, flags);
    } catch {
      // try the next reading
    }
  }
  return undefined;
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
 * @example
 * ```ts
 * checkJsonSchema({ type: "object", properties: { a: { type: "number" } }, required: ["a"] }, { a: "1" });
 * // → [{ path: "a", message: "expected number, got string" }]
 * ```
 */
export function checkJsonSchema(schema: unknown, value: unknown): SchemaIssue[] {
  const root: Schema = typeof schema === "boolean" || isObject(schema) ? schema : true;
  const walk: Walk = { root, issues: [], budget: { steps: 0 } };
  check(walk, root, value, "", 0);
  return walk.budget.steps > MAX_STEPS ? [{ ...TOO_COMPLEX }] : walk.issues;
}

/** Issues as one line a model can act on: `a: expected number, got string; b: required`. */
export function formatSchemaIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`))
    .join("; ");
}
