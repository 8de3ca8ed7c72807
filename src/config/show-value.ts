/**
 * A value as an error message about a wrong option shows it: `"5"` (a string), `5`, `null`, an array,
 * an object — never `[object Object]`, and never throwing, whatever plain JavaScript passed.
 *
 * @module
 */

/** A short description of `value` for "… must be a string, got …" messages. */
export function showValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    case "undefined":
      return "nothing";
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    default:
      return "an object";
  }
}
