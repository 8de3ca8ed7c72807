/**
 * The keywords that check a value where it stands, without walking into it: `type`, `enum`,
 * `const`, string lengths and `pattern`, number bounds and `multipleOf`.
 *
 * @module
 */

import { equal, matchesType, typeOf } from "./json-values.ts";
import { matches } from "./schema-patterns.ts";
import { report, shown, type Walk } from "./schema-walk.ts";

/** `type`: whether `value` is of one of the types named (reported when not). */
export function checkType(
  walk: Walk,
  schema: Record<string, unknown>,
  value: unknown,
  path: string,
): boolean {
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

/** `enum` and `const`. */
export function checkValue(walk: Walk, schema: Record<string, unknown>, value: unknown, path: string): void {
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => equal(option, value)))
    report(walk, path, `expected one of ${schema.enum.map(shown).join(", ")}, got ${shown(value)}`);
  if ("const" in schema && !equal(schema.const, value))
    report(walk, path, `expected ${shown(schema.const)}, got ${shown(value)}`);
}

/** String lengths (in code points) and `pattern`. */
export function checkString(walk: Walk, schema: Record<string, unknown>, value: string, path: string): void {
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength)
    report(walk, path, `expected at least ${schema.minLength} characters, got ${length}`);
  if (typeof schema.maxLength === "number" && length > schema.maxLength)
    report(walk, path, `expected at most ${schema.maxLength} characters, got ${length}`);
  if (typeof schema.pattern === "string" && matches(walk.patterns, schema.pattern, value) === false)
    report(walk, path, `expected text matching /${schema.pattern}/`);
}

/** Number bounds (both exclusive styles) and `multipleOf`. */
export function checkNumber(walk: Walk, schema: Record<string, unknown>, value: number, path: string): void {
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
