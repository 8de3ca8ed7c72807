/**
 * The fields of a `streamTurn` request, checked before the turn reads them: an unknown field
 * (`systemPromt`, `max_tokens`) is a ConfigError with "did you mean …", as for options, instead of a
 * request sent without it.
 *
 * @module
 */

import type { ListsEvery } from "../config/lists-every.ts";
import { invalidOption, notStringOption, notStringsOption } from "../config/option-checks.ts";
import { showValue } from "../config/show-value.ts";
import { unknownOption } from "../config/unknown-option.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import type { ModelRequest, ToolSpec } from "../types.ts";

/** Every field of a {@link ModelRequest}. */
export const MODEL_REQUEST_KEYS = [
  "messages",
  "systemPrompt",
  "tools",
  "maxTokens",
  "temperature",
  "thinking",
  "stopSequences",
  "cache",
  "output",
  "nativeCompaction",
] as const satisfies ReadonlyArray<keyof ModelRequest>;

// Adding a field to ModelRequest without listing it above fails to compile here.
const _everyField: ListsEvery<ModelRequest, (typeof MODEL_REQUEST_KEYS)[number]> = true;
void _everyField;

const CACHE_VALUES = { ttl: ["5m", "1h"], retention: ["in_memory", "24h"] } as const;

/** What is wrong with a `cache` option (`false`, or `{ ttl?, key?, retention? }`), or undefined. */
export function cacheProblem(cache: unknown): ConfigError | undefined {
  if (cache === undefined || cache === false) return undefined;
  if (typeof cache !== "object" || cache === null || Array.isArray(cache))
    return invalidOption(
      `cache must be false or { ttl?, key?, retention? }, got ${showValue(cache)}`,
      "cache",
    );
  const fields = cache as Record<string, unknown>;
  const unknown = unknownOption(cache, ["ttl", "key", "retention"], "cache option");
  if (unknown !== undefined) return unknown;
  for (const name of ["ttl", "retention"] as const) {
    const value = fields[name];
    if (value !== undefined && !(CACHE_VALUES[name] as readonly unknown[]).includes(value))
      return invalidOption(
        `cache.${name} must be ${CACHE_VALUES[name].map((v) => `"${v}"`).join(" or ")}, got ${showValue(value)}`,
        `cache.${name}`,
      );
  }
  return notStringOption(fields.key, "cache.key");
}

/** What is wrong with a request's `output` (`{ name, schema }`), or undefined. */
function outputProblem(output: unknown): ConfigError | undefined {
  if (output === undefined) return undefined;
  const { name, schema } = (output ?? {}) as Record<string, unknown>;
  if (typeof name === "string" && /^[\w-]{1,64}$/.test(name) && typeof schema === "object" && schema !== null)
    return undefined;
  return invalidOption(
    `output must be { name, schema } (a JSON Schema object), got ${showValue(output)}`,
    "output",
  );
}

/**
 * The first problem with the shape of a turn's request (`request` already known to be an object), or
 * undefined. `thinking`, `temperature` and `maxTokens` are checked once the provider is known.
 */
export function checkTurnRequest(request: object): ConfigError | undefined {
  const fields = request as Record<string, unknown>;
  const problem =
    unknownOption(request, MODEL_REQUEST_KEYS, "request field") ??
    (Array.isArray(fields.messages)
      ? undefined
      : invalidOption(
          `messages must be an array of messages, got ${showValue(fields.messages)}`,
          "messages",
        )) ??
    notStringOption(fields.systemPrompt, "systemPrompt") ??
    notStringsOption(fields.stopSequences, "stopSequences") ??
    cacheProblem(fields.cache) ??
    outputProblem(fields.output);
  if (problem !== undefined || fields.tools === undefined) return problem;
  if (!Array.isArray(fields.tools)) {
    return invalidOption(`tools must be an array of tool specs, got ${showValue(fields.tools)}`, "tools");
  }
  const index = fields.tools.findIndex((tool: unknown) => {
    const spec = tool as Partial<Record<keyof ToolSpec, unknown>> | null;
    return (
      typeof spec?.name !== "string" ||
      typeof spec.description !== "string" ||
      typeof spec.inputSchema !== "object" ||
      spec.inputSchema === null
    );
  });
  if (index === -1) return undefined;
  return invalidOption(
    `tools[${index}] must be { name, description, inputSchema } (a JSON Schema object)`,
    `tools.${index}`,
  );
}
