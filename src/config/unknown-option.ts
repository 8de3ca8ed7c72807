/**
 * Options objects from plain JavaScript can hold keys TypeScript would have refused: `baseUrl`,
 * `systemPromt`, `max_tokens`. Sending the request anyway would silently ignore them (a mistyped
 * `baseUrl` sends the key to the public API), so an unknown key is a ConfigError that names the key
 * and the option it probably meant.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { didYouMean } from "./did-you-mean.ts";

/** A ConfigError for the first key of `options` not in `known`, or undefined when all are known. */
export function unknownOption(
  options: object,
  known: readonly string[],
  what = "option",
): ConfigError | undefined {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const guess = didYouMean(key, known);
    const hint =
      guess === undefined ? `; known ${what}s: ${known.join(", ")}` : ` — did you mean "${guess}"?`;
    return new ConfigError(`Unknown ${what} "${key}"${hint}`, { code: "CONFIG_INVALID", path: key });
  }
  return undefined;
}

/** A ConfigError when `options` is not a plain object (`undefined`, `null`, a string, an array). */
export function notAnObject(options: unknown, name: string): ConfigError | undefined {
  if (typeof options === "object" && options !== null && !Array.isArray(options)) return undefined;
  const got = options === null ? "null" : Array.isArray(options) ? "an array" : typeof options;
  return new ConfigError(`${name} must be an object of options, got ${got}`, {
    code: "CONFIG_INVALID",
    path: "",
  });
}
