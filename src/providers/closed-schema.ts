/**
 * A JSON Schema as Anthropic's structured outputs take it: every object closed
 * (`additionalProperties: false`; a map's value schema cannot be kept), and the constraints it
 * refuses (number bounds, string lengths and patterns, item and property counts) left out. The answer
 * is validated by the caller's own schema afterwards, so nothing is lost. The schema is copied, not
 * changed.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";

/** Keywords Anthropic's structured outputs refuse. */
const REFUSED = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "maxItems",
  "minProperties",
  "maxProperties",
]);

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]);
/** Keywords whose value is a schema, or a list of schemas. */
const SCHEMAS = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "if",
  "then",
  "else",
  "propertyNames",
]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

const isObject = (value: JsonValue): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `schema` with each object closed and the refused constraints left out. */
export function closedSchema(schema: JsonValue, depth = 0): JsonValue {
  if (depth > 64 || !isObject(schema)) return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (REFUSED.has(key) || (key === "minItems" && typeof value === "number" && value > 1)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: JsonObject = {};
      for (const [name, child] of Object.entries(value)) map[name] = closedSchema(child, depth + 1);
      copy[key] = map;
    } else if (SCHEMAS.has(key)) copy[key] = closedSchema(value, depth + 1);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value))
      copy[key] = value.map((child) => closedSchema(child, depth + 1));
    else copy[key] = value;
  }
  if (copy.type === "object" && copy.additionalProperties !== false) copy.additionalProperties = false;
  return copy;
}
