/**
 * Schema problems in plain English, without loading zod's locale (which would cost every browser
 * bundle that restores a session): `expected one of user, assistant, tool_result, got "bot"`.
 *
 * @module
 */

/** The fields of a zod issue this reads (all optional: issues differ by code). */
export interface SchemaIssue {
  code?: string;
  path: PropertyKey[];
  expected?: unknown;
  values?: readonly unknown[];
  options?: readonly unknown[];
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  keys?: readonly string[];
  inclusive?: boolean;
  /** The words of a custom check (`z.refine(…, "a non-negative integer")`). */
  message?: string;
}

/** The value at `path` in `root`, or undefined. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** A short, safe rendering of a value for a message. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return "an object";
  return typeof value === "number" || typeof value === "boolean" ? String(value) : typeof value;
}

/** zod's names for expected types, where people say it differently. */
const EXPECTED_NAMES: Record<string, string> = { int: "integer", record: "object" };

/** The JSON type of a value, as a message names it: `string`, `array`, `null`, `nothing` when missing. */
function typeName(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function bound(issue: SchemaIssue, which: "minimum" | "maximum"): string {
  const limit = String(issue[which]);
  const more = which === "minimum" ? "at least" : "at most";
  if (issue.origin === "string") return `a string of ${more} ${limit} characters`;
  if (issue.origin === "array") return `${more} ${limit} items`;
  const strict = issue.inclusive === false;
  const sign = which === "minimum" ? (strict ? ">" : "≥") : strict ? "<" : "≤";
  return `a number ${sign} ${limit}`;
}

/** What is wrong at the issue's path in `root`, in words: "expected …, got …". */
export function describeIssue(issue: SchemaIssue, root: unknown): string {
  const got = shown(valueAt(root, issue.path));
  switch (issue.code) {
    case "invalid_type": {
      const expected = EXPECTED_NAMES[String(issue.expected)] ?? String(issue.expected);
      const value = valueAt(root, issue.path);
      // The wrong type is named (`got string`); a number that is not an integer is shown (`got 0.5`).
      const received = typeof value === "number" ? shown(value) : typeName(value);
      return `expected ${article(expected)}, got ${received}`;
    }
    case "custom":
      // Wisp's own checks carry their words in the message (never zod's locale).
      return `expected ${issue.message ?? "a valid value"}, got ${got}`;
    case "invalid_value": {
      const values = (issue.values ?? []).map((value) => (typeof value === "string" ? value : shown(value)));
      return `expected ${values.length === 1 ? values[0] : `one of ${values.join(", ")}`}, got ${got}`;
    }
    case "invalid_union":
      return issue.options !== undefined
        ? `expected one of ${issue.options.map(String).join(", ")}, got ${got}`
        : `matches none of the allowed shapes, got ${got}`;
    case "too_small":
      return `expected ${bound(issue, "minimum")}, got ${got}`;
    case "too_big":
      return issue.origin === "string"
        ? `expected ${bound(issue, "maximum")}`
        : `expected ${bound(issue, "maximum")}, got ${got}`;
    case "unrecognized_keys":
      return `unknown keys ${(issue.keys ?? []).join(", ")}`;
    default:
      return `invalid value ${got}`;
  }
}
