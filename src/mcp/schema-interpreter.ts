/**
 * The interpreter at the heart of the schema checker: {@link check} walks a schema against a value,
 * applies the keywords, and walks on into items, properties, combinators and `$ref`s, within bounds
 * of depth and steps that hold against hostile schemas.
 *
 * @module
 */

import { equal, isObject } from "./json-values.ts";
import { checkNumber, checkString, checkType, checkValue } from "./scalar-keywords.ts";
import { matches } from "./schema-patterns.ts";
import { resolveRef } from "./schema-refs.ts";
import { join, report, type SchemaIssue, shown, type Walk } from "./schema-walk.ts";

/** How deep schemas and values may nest before the check gives up on them (a `$ref` cycle, say). */
const MAX_DEPTH = 64;
/**
 * At most this many schema-against-value checks per call: `MAX_DEPTH` bounds how deep a hostile
 * schema goes (`{ anyOf: [{ $ref: "#" }, { $ref: "#" }] }`), not how wide, so work is bounded too.
 */
export const MAX_STEPS = 100_000;

/** Issues of `value` against `schema`, collected into a fresh list (for the combinators). */
function issuesOf(walk: Walk, schema: unknown, value: unknown, path: string, depth: number): SchemaIssue[] {
  const inner: Walk = { root: walk.root, issues: [], budget: walk.budget, patterns: walk.patterns };
  check(inner, schema, value, path, depth);
  return inner.issues;
}

/** `items` (a schema or a list), `prefixItems`, item counts, `uniqueItems` and `contains`. */
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

/** `properties`, `required`, `patternProperties`, `additionalProperties`, `propertyNames` and property counts. */
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
    if (!matched && !undecided) {
      // No additionalProperties: check takes undefined as anything.
      if (schema.additionalProperties === false) report(walk, child, "unexpected property");
      else check(walk, schema.additionalProperties, value[key], child, depth + 1);
    }
  }
}

/** `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. */
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
    // An empty anyOf (invalid JSON Schema, but a server may send it) lets nothing match.
    if (results.length === 0) report(walk, path, "expected one of 0 alternatives to match (anyOf is empty)");
    // The issues of the alternative that came closest: none when one matched.
    else
      for (const issue of results.reduce((best, issues) => (issues.length < best.length ? issues : best)))
        report(walk, issue.path, issue.message);
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
    check(walk, branch, value, path, depth + 1); // no then (or else): check takes undefined as anything
  }
}

/** A `$ref`: the value checked against the schema it points to (nothing, for one that points nowhere). */
function checkRef(walk: Walk, ref: string, value: unknown, path: string, depth: number): void {
  const target = resolveRef(walk.root, ref);
  if (target === "malformed") report(walk, path, `the schema's $ref ${shown(ref)} cannot be decoded`);
  else check(walk, target, value, path, depth + 1); // pointing nowhere: undefined, taken as anything
}

/**
 * Checks `value` against `schema` at `path`, recording what is wrong in `walk`: every keyword the
 * checker knows, walking into items, properties, combinators and `$ref`s; nothing once the call's
 * {@link MAX_STEPS} ran out.
 */
export function check(walk: Walk, schema: unknown, value: unknown, path: string, depth: number): void {
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
