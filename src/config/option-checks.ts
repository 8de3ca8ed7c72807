/**
 * Small checks of one option's type, each a ConfigError (code CONFIG_INVALID) whose `path` names the
 * option, or undefined when the option is absent or right.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { didYouMean } from "./did-you-mean.ts";
import { showValue } from "./show-value.ts";

/** A ConfigError with code CONFIG_INVALID at `path`. */
export function invalidOption(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path });
}

/** `true` for an object that is not null and not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A ConfigError when `value` is set but not a plain object. */
export function notObjectOption(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || isPlainObject(value)) return undefined;
  return invalidOption(`${path} must be an object, got ${showValue(value)}`, path);
}

/** A ConfigError when `value` is set but not a string. */
export function notStringOption(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || typeof value === "string") return undefined;
  return invalidOption(`${path} must be a string, got ${showValue(value)}`, path);
}

/** A ConfigError when `value` is set but not a function. */
export function notFunctionOption(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || typeof value === "function") return undefined;
  return invalidOption(`${path} must be a function, got ${showValue(value)}`, path);
}

/** A ConfigError when `value` is set but not an array of strings. */
export function notStringsOption(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value))
    return invalidOption(`${path} must be an array of strings, got ${showValue(value)}`, path);
  const index = value.findIndex((item) => typeof item !== "string");
  if (index === -1) return undefined;
  return invalidOption(
    `${path}[${index}] must be a string, got ${showValue(value[index])}`,
    `${path}.${index}`,
  );
}

/** A ConfigError when `value` is set but not a number ≥ 0 (`Infinity` allowed: no limit). */
export function notDuration(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || (typeof value === "number" && value >= 0)) return undefined;
  return invalidOption(`${path} must be a number of milliseconds ≥ 0, got ${showValue(value)}`, path);
}

/**
 * A ConfigError when `value` is set but not an `AbortSignal`. Checked by shape, not `instanceof`, so a
 * signal from another realm (an iframe, a polyfill) is accepted.
 */
export function notSignalOption(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined) return undefined;
  const signal = value as Partial<AbortSignal> | null;
  if (
    typeof signal === "object" &&
    signal !== null &&
    typeof signal.aborted === "boolean" &&
    typeof signal.addEventListener === "function" &&
    typeof signal.removeEventListener === "function"
  ) {
    return undefined;
  }
  return invalidOption(`${path} must be an AbortSignal, got ${showValue(value)}`, path);
}

/**
 * A check that `value` is one of `values` (compared with `===`), suggesting the one a string probably
 * meant: `mode must be "steer" or "followUp", got "folowUp" — did you mean "followUp"?`.
 */
export function oneOfOption(
  values: readonly unknown[],
): (value: unknown, path: string) => ConfigError | undefined {
  const shown = values.map((value) => JSON.stringify(value)).join(" or ");
  const names = values.filter((value): value is string => typeof value === "string");
  return (value, path) => {
    if (value === undefined || values.includes(value)) return undefined;
    const guess = typeof value === "string" ? didYouMean(value, names) : undefined;
    const hint = guess === undefined ? "" : ` — did you mean "${guess}"?`;
    return invalidOption(`${path} must be ${shown}, got ${showValue(value)}${hint}`, path);
  };
}

/**
 * A ConfigError when `value` is set but not a safe integer ≥ 1 (≥ 0 with `allowZero`): what a stored
 * session holds (its restore refuses any other number).
 */
export function notCountOption(value: unknown, path: string, allowZero = false): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && (value > 0 || (allowZero && value === 0)))
    return undefined;
  return invalidOption(
    `${path} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${showValue(value)}`,
    path,
  );
}

/** A ConfigError when `value` is set but not a number ≥ 0. */
export function notNonNegativeOption(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || (typeof value === "number" && value >= 0)) return undefined;
  return invalidOption(`${path} must be a number ≥ 0, got ${showValue(value)}`, path);
}
