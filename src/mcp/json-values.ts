/**
 * JSON values as the schema checker reads them: a schema's shape, JSON type names (`integer`
 * included), and deep equality for `enum`, `const` and `uniqueItems`.
 *
 * @module
 */

/** A JSON Schema as the checker reads it: `true`, `false`, or an object of keywords. */
export type Schema = boolean | { readonly [key: string]: unknown };

/** Whether `value` is a JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON type name of a value (`integer` for whole numbers). */
export function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether `value` is of the JSON type `type` (an integer is a number too). */
export function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

/** Deep equality of JSON values (for `enum`, `const`, `uniqueItems`). */
export function equal(a: unknown, b: unknown): boolean {
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
