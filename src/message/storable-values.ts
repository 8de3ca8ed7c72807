/**
 * What a provider sends, made storable: whatever arrives, the message Wisp keeps must pass Wisp's
 * own restore (`parseSessionState`). A hostile or broken provider can send negative or absurd token
 * counts, ids thousands of characters long, or tool arguments nested thousands of levels deep; each
 * is bounded here, once, where the message is built, so the session can always be exported and
 * restored.
 *
 * @module
 */

import type { Usage } from "../types.ts";
import { toolCallIdFor } from "./tool-call-ids.ts";

/** Longest id Wisp stores (a SessionState's limit); a longer one is shortened, deterministically. */
export const MAX_ID_LENGTH = 1000;

/** Longest string Wisp stores (text, tool output, image data): a SessionState's limit. */
export const MAX_STRING_LENGTH = 20_000_000;

/** `text` if it fits {@link MAX_STRING_LENGTH}, else cut to it with a note saying how much was cut. */
export function storableText(text: string): string {
  if (text.length <= MAX_STRING_LENGTH) return text;
  const note = `\n[… ${text.length - MAX_STRING_LENGTH} more characters were cut: Wisp stores at most ${MAX_STRING_LENGTH}]`;
  return text.slice(0, MAX_STRING_LENGTH - note.length) + note;
}

/** Deepest nesting of JSON Wisp stores in tool arguments and provider blocks. */
export const MAX_JSON_DEPTH = 100;

/** A token count as stored: a non-negative integer no larger than `Number.MAX_SAFE_INTEGER`. */
function storableCount(value: unknown): number {
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) return 0;
  // +Infinity and huge counts are capped, not dropped: a budget must still see them.
  return Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER);
}

/** A usage record as stored: every count bounded, a cost only when it is a finite, non-negative number. */
export function storableUsage(usage: Usage): Usage {
  const stored: Usage = {
    input: storableCount(usage.input),
    output: storableCount(usage.output),
    cacheRead: storableCount(usage.cacheRead),
    cacheWrite: storableCount(usage.cacheWrite),
    reasoning: storableCount(usage.reasoning),
  };
  const cost = usage.costUsd;
  if (typeof cost === "number" && Number.isFinite(cost) && cost >= 0) stored.costUsd = cost;
  return stored;
}

const ANY_ID = { pattern: /^[\s\S]+$/, maxLength: MAX_ID_LENGTH };

/** `id` if it is short enough to store, else a stable shortened form (the same for the same id). */
export function storableId(id: string): string {
  return id.length <= MAX_ID_LENGTH ? id : toolCallIdFor(id, ANY_ID);
}

/** How many array slots one {@link nestsDeeperThan} walks by index at most: JSON of 20 MB holds fewer. */
const MAX_INDEXED_SLOTS = 20_000_000;

/** True when `value` nests arrays or objects deeper than `maxDepth` (checked without recursion). */
export function nestsDeeperThan(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  // Two parallel stacks, and only objects pushed: this walks a whole restored session (megabytes).
  const objects: object[] = [];
  const depths: number[] = [];
  let indexed = MAX_INDEXED_SLOTS;
  if (typeof value === "object" && value !== null) {
    objects.push(value);
    depths.push(0);
  }
  while (objects.length > 0) {
    const current = objects.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop() as number;
    if (depth >= maxDepth) return true;
    // Arrays by index: `for…in` would make a string of every index (2.7x slower on a long array). But
    // a crafted array can be sparse (a length of 2³²−1 with one item would take minutes by index), so
    // past a total no JSON Wisp stores reaches, arrays are walked by `for…in`: only the items they have.
    if (Array.isArray(current) && current.length <= indexed) {
      indexed -= current.length;
      for (let index = 0; index < current.length; index++) {
        const child: unknown = current[index];
        if (typeof child === "object" && child !== null) {
          objects.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) {
        objects.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Whether `value` is plain JSON no deeper than `maxDepth`: what a stored conversation and an
 * approval's digest see the same way (no `undefined` fields, Dates, class instances, BigInts or
 * non-finite numbers). A `__proto__` key is an own key here, as `JSON.parse` makes it.
 */
export function isPlainJson(value: unknown, maxDepth = MAX_JSON_DEPTH, depth = 0): boolean {
  if (depth > maxDepth) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isPlainJson(item, maxDepth, depth + 1));
  if (typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every((field) => isPlainJson(field, maxDepth, depth + 1));
}
