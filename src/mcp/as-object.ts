/**
 * `asObject`: a JSON value as an object, for reading the loosely typed answers of MCP servers.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";

/** `value` when it is a JSON object (not null, not an array), else undefined. */
export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
}
