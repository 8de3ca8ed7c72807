/**
 * Layer `config` (docs/architecture.md): option tables and the checks derived from them (did you mean, shown values).
 *
 * One declarative table per option set, beside its interface: each option's key and its check (type
 * and range; the interface's TSDoc says what it means and its default). The unknown-key check ("did
 * you mean …"), the runtime check and the key lists are all derived from the table. The table's type
 * lists every key of the option set's interface, so an option missing from it fails to compile.
 *
 * @module
 */

import type { ConfigError } from "../errors/sdk-error.ts";
import { invalidOption, notObjectOption } from "./option-checks.ts";
import { unknownOption } from "./unknown-option.ts";

/** What is wrong with one option's value at `path`, or undefined when it is absent or right. */
export type OptionCheck = (value: unknown, path: string) => ConfigError | undefined;

/**
 * One option of a table: its check (type and range, run whenever the option is set), `null` when any
 * value is taken here (a value that needs the provider, such as `temperature`, is checked once it is
 * known), or `{ required: true, check? }` for an option that must be given (its check then runs when
 * it is absent too, and may say what is missing; otherwise the message is "`path` is required"). What
 * the option means and its default are the TSDoc of its interface's property, beside the table (a
 * doc string here would ship in every bundle).
 */
export type OptionRule = OptionCheck | null | { required: true; check?: OptionCheck };

/** An option set's table: a rule for every key of `T`, in the order they are checked. */
export type OptionTable<T> = { readonly [K in keyof T]-?: OptionRule };

/** The keys of `table`, in its order. */
export function optionKeys<T>(table: OptionTable<T>): Array<keyof T & string> {
  return Object.keys(table) as Array<keyof T & string>;
}

/** How {@link checkOptions} names what it checks. */
export interface CheckOptionsHow {
  /** The noun of an unknown key's message: "Unknown `what` …" (default "option"). */
  what?: string;
  /** The path of the option set itself, put before each key's (`retry` gives `retry.maxRetries`). */
  path?: string;
  /** Look for keys the table does not list (default true). */
  unknownKeys?: boolean;
}

/**
 * The first problem with `options` (an object) against `table`, or undefined: an unknown key first
 * (with the key it probably meant), then each set option's rule, in the table's order.
 */
export function checkOptions<T>(
  table: OptionTable<T>,
  options: object,
  { what = "option", path, unknownKeys = true }: CheckOptionsHow = {},
): ConfigError | undefined {
  const unknown = unknownKeys ? unknownOption(options, optionKeys(table), what) : undefined;
  if (unknown !== undefined)
    return path === undefined ? unknown : invalidOption(unknown.message, `${path}.${unknown.path}`);
  const values = options as Record<string, unknown>;
  for (const [key, rule] of Object.entries(table) as Array<[string, OptionRule]>) {
    const value = values[key];
    const required = rule !== null && typeof rule === "object";
    if (value === undefined && !required) continue;
    const at = path === undefined ? key : `${path}.${key}`;
    const problem = (required ? rule.check : rule)?.(value, at);
    if (problem !== undefined) return problem;
    // A check that lets an absent value pass (most do) says nothing about a required one.
    if (value === undefined) return invalidOption(`${at} is required`, at);
  }
  return undefined;
}

/**
 * The check of an option that holds an option set of its own (`retry`, `budget`, `compat`): an object,
 * with no unknown key (named under its parent, `Unknown retry option "maxRetrys"`) and each rule met.
 */
export function nestedTable<T>(table: OptionTable<T>): OptionCheck {
  return (value, path) =>
    notObjectOption(value, path) ??
    (value === undefined
      ? undefined
      : checkOptions(table, value as object, { what: `${path} option`, path }));
}
