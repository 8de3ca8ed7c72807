/**
 * The fields of a `streamTurn` request, checked before the turn reads them: an unknown field
 * (`systemPromt`, `max_tokens`) is a ConfigError with "did you mean …", as for options, instead of a
 * request sent without it.
 *
 * @module
 */

import type { ConfigError } from "../errors/sdk-error.ts";
import type { ModelRequest, ToolSpec } from "../types.ts";
import type { ListsEvery } from "./lists-every.ts";
import { invalidOption, notStringOption, notStringsOption } from "./option-checks.ts";
import { showValue } from "./show-value.ts";
import { unknownOption } from "./unknown-option.ts";

/** Every field of a {@link ModelRequest}. */
export const MODEL_REQUEST_KEYS = [
  "messages",
  "systemPrompt",
  "tools",
  "maxTokens",
  "temperature",
  "thinking",
  "stopSequences",
] as const satisfies ReadonlyArray<keyof ModelRequest>;

// Adding a field to ModelRequest without listing it above fails to compile here.
const _everyField: ListsEvery<ModelRequest, (typeof MODEL_REQUEST_KEYS)[number]> = true;
void _everyField;

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
    notStringsOption(fields.stopSequences, "stopSequences");
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
