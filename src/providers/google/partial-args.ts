/**
 * Vertex's streamed function-call arguments: `partialArgs` entries of `{jsonPath, stringValue |
 * numberValue | boolValue | nullValue, willContinue}` that build the arguments object piece by piece
 * (a string value continues across entries with the same path).
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../../types.ts";
import type { EventData } from "../parse-event-data.ts";

/** The keys of a `$.a.b[0]` path. */
function pathKeys(jsonPath: string): (string | number)[] {
  const keys: (string | number)[] = [];
  for (const match of jsonPath.replace(/^\$/, "").matchAll(/\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]/g)) {
    if (match[1] !== undefined) keys.push(match[1]);
    else if (match[2] !== undefined) keys.push(Number(match[2]));
    else if (match[3] !== undefined) keys.push(match[3]);
  }
  return keys;
}

function scalarOf(entry: EventData): JsonValue | undefined {
  if (typeof entry.stringValue === "string") return entry.stringValue;
  if (typeof entry.numberValue === "number") return entry.numberValue;
  if (typeof entry.boolValue === "boolean") return entry.boolValue;
  if ("nullValue" in entry) return null;
  return undefined;
}

/** Applies one `partialArgs` entry to `args`, appending to a string already at that path. */
export function applyPartialArg(args: JsonObject, entry: EventData): void {
  const keys = typeof entry.jsonPath === "string" ? pathKeys(entry.jsonPath) : [];
  const value = scalarOf(entry);
  if (keys.length === 0 || value === undefined) return;
  let target: JsonObject | JsonValue[] = args;
  for (const [position, key] of keys.entries()) {
    const last = position === keys.length - 1;
    const container = target as Record<string | number, JsonValue>;
    if (last) {
      const current = container[key];
      container[key] = typeof current === "string" && typeof value === "string" ? current + value : value;
      return;
    }
    const next = container[key];
    if (typeof next !== "object" || next === null) {
      container[key] = typeof keys[position + 1] === "number" ? [] : {};
    }
    target = container[key] as JsonObject | JsonValue[];
  }
}
