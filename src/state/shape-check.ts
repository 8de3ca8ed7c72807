/**
 * A small checker of JSON shapes, written for one job: checking a restored SessionState (megabytes of
 * untrusted JSON) quickly and saying in plain words what is wrong and where. A check returns the value
 * it accepts — objects copied with only their known keys, as a schema library would strip them — or
 * throws a {@link ShapeProblem} naming the first bad field. Nothing is generated as code, nothing is
 * allocated on the happy path beyond the copy, and no schema library lands in a browser bundle.
 *
 * @module
 */

/** Why a value failed a check: the words (`expected a number, got string`) and the path to it. */
export class ShapeProblem {
  /** Keys from the checked root to the bad value, filled in as the problem travels up. */
  readonly path: Array<string | number> = [];
  /** What is wrong, without the path: `expected a number, got string`. */
  readonly words: string;
  constructor(words: string) {
    this.words = words;
  }
}

/** A check: returns what it accepts (a stripped copy for objects), throws a ShapeProblem otherwise. */
export type Check<T = unknown> = (value: unknown) => T;

/** The value as a message shows it: a short string in quotes, a number, or its kind. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return "an object";
  return typeof value === "number" || typeof value === "boolean" ? String(value) : typeof value;
}

/** The JSON type of a value as a message names it (`string`, `array`, `null`), a number shown as itself. */
function received(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? String(value) : typeof value;
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** A ShapeProblem for a value of the wrong type. */
function wrongType(expected: string, value: unknown): ShapeProblem {
  return new ShapeProblem(`expected ${article(expected)}, got ${received(value)}`);
}

/** A ShapeProblem "expected {what}, got {value}". */
function expected(what: string, value: unknown): ShapeProblem {
  return new ShapeProblem(`expected ${what}, got ${shown(value)}`);
}

/** A string of `min` to `max` characters (by default any). */
export function string(min = 0, max = Number.POSITIVE_INFINITY): Check<string> {
  return (value) => {
    if (typeof value !== "string") throw wrongType("string", value);
    if (value.length < min) throw expected(`a string of at least ${min} characters`, value);
    if (value.length > max) throw new ShapeProblem(`expected a string of at most ${max} characters`);
    return value;
  };
}

/** Bounds of a number: inclusive `min`/`max`, or `above` for a strict lower bound. */
export interface NumberBounds {
  integer?: boolean;
  min?: number;
  above?: number;
  max?: number;
}

/** A finite number within `bounds`; with `integer`, a safe integer. */
export function number(bounds: NumberBounds = {}): Check<number> {
  const { integer = false, min, above, max } = bounds;
  return (value) => {
    if (typeof value !== "number" || !Number.isFinite(value)) throw wrongType("number", value);
    if (integer && !Number.isSafeInteger(value)) throw wrongType("integer", value);
    if (min !== undefined && value < min) throw expected(`a number ≥ ${min}`, value);
    if (above !== undefined && value <= above) throw expected(`a number > ${above}`, value);
    if (max !== undefined && value > max) throw expected(`a number ≤ ${max}`, value);
    return value;
  };
}

/** `true` or `false`. */
export const boolean: Check<boolean> = (value) => {
  if (typeof value !== "boolean") throw wrongType("boolean", value);
  return value;
};

/** One of the given values (strings or numbers). */
export function oneOf<const T extends string | number>(values: readonly T[]): Check<T> {
  const allowed = new Set<unknown>(values);
  const words = values.length === 1 ? String(values[0]) : `one of ${values.join(", ")}`;
  return (value) => {
    if (!allowed.has(value)) throw expected(words, value);
    return value as T;
  };
}

/** Any value for which `test` is true; `words` say what that is ("a JSON object"). Not copied. */
export function satisfies<T>(test: (value: unknown) => boolean, words: string): Check<T> {
  return (value) => {
    if (!test(value)) throw expected(words, value);
    return value as T;
  };
}

/** What `check` accepts that also passes `test`; `words` say what that is ("a non-negative integer"). */
export function refine<T>(check: Check<T>, test: (value: T) => boolean, words: string): Check<T> {
  return (value) => {
    const checked = check(value);
    if (!test(checked)) throw expected(words, checked);
    return checked;
  };
}

/** The problem, with `key` put in front of its path. */
function under(problem: unknown, key: string | number): unknown {
  if (problem instanceof ShapeProblem) problem.path.unshift(key);
  return problem;
}

/** An array of at most `max` items, each passing `item`; returns a copy. */
export function array<T>(item: Check<T>, max = Number.POSITIVE_INFINITY): Check<T[]> {
  return (value) => {
    if (!Array.isArray(value)) throw wrongType("array", value);
    if (value.length > max) throw expected(`at most ${max} items`, value);
    const copy = new Array<T>(value.length);
    for (let index = 0; index < value.length; index++) {
      try {
        copy[index] = item(value[index]);
      } catch (problem) {
        throw under(problem, index);
      }
    }
    return copy;
  };
}

/** A field that may be missing (or `undefined`, which is then left out). */
export interface Optional<T> {
  optional: Check<T>;
}

/** Marks a field of {@link object} as optional. */
export function optional<T>(check: Check<T>): Optional<T> {
  return { optional: check };
}

type Field = Check | Optional<unknown>;

/** A plain object with these fields, checked in order; returns a copy holding only them. */
export function object<T>(fields: Record<string, Field>): Check<T> {
  const entries = Object.entries(fields).map(([key, field]) =>
    typeof field === "function"
      ? { key, check: field, optional: false }
      : { key, check: field.optional, optional: true },
  );
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw wrongType("object", value);
    const source = value as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const { key, check, optional } of entries) {
      const field = source[key];
      if (optional && field === undefined) continue;
      try {
        copy[key] = check(field);
      } catch (problem) {
        throw under(problem, key);
      }
    }
    return copy as T;
  };
}

/** An object whose `key` field picks which of `variants` checks it. */
export function variant<T>(key: string, variants: Record<string, Check>): Check<T> {
  const names = Object.keys(variants);
  const choices = new Map(Object.entries(variants));
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw wrongType("object", value);
    const tag = (value as Record<string, unknown>)[key];
    const check = typeof tag === "string" ? choices.get(tag) : undefined;
    if (check === undefined) throw under(expected(`one of ${names.join(", ")}`, tag), key);
    return check(value) as T;
  };
}
