/**
 * The fields of a `streamTurn` request, checked before the turn reads them: an unknown field
 * (`systemPromt`, `max_tokens`) is a ConfigError with "did you mean …", as for options, instead of a
 * request sent without it.
 *
 * @module
 */

import { invalidOption, notStringOption, notStringsOption, oneOfOption } from "../config/option-checks.ts";
import { checkOptions, nestedTable, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import type { ModelRequest, PromptCache, ToolSpec } from "../types.ts";

/** The fields of `cache`. */
const CACHE_FIELDS: OptionTable<PromptCache> = {
  ttl: oneOfOption(["5m", "1h"]),
  key: notStringOption,
  retention: oneOfOption(["in_memory", "24h"]),
};

const cacheFields = nestedTable(CACHE_FIELDS);

/** What is wrong with a `cache` option (`false`, or `{ ttl?, key?, retention? }`), or undefined. */
export function cacheProblem(cache: unknown, path: string): ConfigError | undefined {
  if (cache === undefined || cache === false) return undefined;
  if (typeof cache !== "object" || cache === null || Array.isArray(cache))
    return invalidOption(
      `${path} must be false or { ttl?, key?, retention? }, got ${showValue(cache)}`,
      path,
    );
  return cacheFields(cache, path);
}

/** What is wrong with a request's `output` (`{ name, schema }`), or undefined. */
function outputProblem(output: unknown, path: string): ConfigError | undefined {
  const { name, schema } = (output ?? {}) as Record<string, unknown>;
  if (typeof name === "string" && /^[\w-]{1,64}$/.test(name) && typeof schema === "object" && schema !== null)
    return undefined;
  return invalidOption(
    `${path} must be { name, schema } (a JSON Schema object), got ${showValue(output)}`,
    path,
  );
}

/** `messages`: an array (each message's shape is the provider's to read). */
function messagesProblem(messages: unknown, path: string): ConfigError | undefined {
  if (Array.isArray(messages)) return undefined;
  // Stryker disable next-line StringLiteral: equivalent: streamTurn's checkTurnInput refuses a non-array first, with its own message
  return invalidOption(`${path} must be an array of messages, got ${showValue(messages)}`, path);
}

/** `tools`: an array of tool specs, each with a name, a description and a JSON Schema object. */
function toolSpecsProblem(tools: unknown, path: string): ConfigError | undefined {
  if (!Array.isArray(tools)) {
    return invalidOption(`${path} must be an array of tool specs, got ${showValue(tools)}`, path);
  }
  const index = tools.findIndex((tool: unknown) => {
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
    `${path}[${index}] must be { name, description, inputSchema } (a JSON Schema object)`,
    `${path}.${index}`,
  );
}

/** The fields of a {@link ModelRequest}, in the order they are checked. */
export const MODEL_REQUEST_FIELDS: OptionTable<ModelRequest> = {
  messages: { required: true, check: messagesProblem },
  systemPrompt: notStringOption,
  stopSequences: notStringsOption,
  cache: cacheProblem,
  output: outputProblem,
  tools: toolSpecsProblem,
  maxTokens: null,
  temperature: null,
  thinking: null,
  nativeCompaction: null,
};

/**
 * The first problem with the shape of a turn's request (`request` already known to be an object), or
 * undefined. `thinking`, `temperature` and `maxTokens` are checked once the provider is known.
 */
export function checkTurnRequest(request: object): ConfigError | undefined {
  return checkOptions(MODEL_REQUEST_FIELDS, request, { what: "request field" });
}
