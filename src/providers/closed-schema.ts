/**
 * A JSON Schema with every object closed (`additionalProperties: false` where it says nothing), as
 * Anthropic's structured outputs require. The schema is copied, not changed.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";

/** `schema` with `additionalProperties: false` on each object schema that does not set it. */
export function closedSchema(schema: JsonValue, depth = 0): JsonValue {
  if (depth > 64 || typeof schema !== "object" || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => closedSchema(item, depth + 1));
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = closedSchema(value, depth + 1);
  if (copy.type === "object" && !("additionalProperties" in copy)) copy.additionalProperties = false;
  return copy;
}
