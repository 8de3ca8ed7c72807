/**
 * A transcript's lines as JSON objects with their line numbers, every other line reported as a
 * warning: the common first step of reading Claude Code and pi files.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";
import { jsonlLines } from "./jsonl-lines.ts";
import type { TranscriptWarning } from "./transcript-types.ts";

/** A line that is a JSON object, with its 1-based number in the file. */
export interface ObjectLine {
  line: number;
  value: JsonObject;
}

/**
 * The lines of `input` that are JSON objects; the others are added to `warnings` by number. `admit`,
 * when given, chooses what of each line is kept (undefined keeps nothing) and may replace lines kept
 * before it (it gets the list so far), so a reader that needs only part of a large file does not hold
 * all of it.
 */
export async function objectLines(
  input: string | ReadableStream<string>,
  warnings: TranscriptWarning[],
  admit: (value: JsonObject, kept: ObjectLine[]) => JsonObject | undefined = (value) => value,
): Promise<ObjectLine[]> {
  const lines: ObjectLine[] = [];
  for await (const entry of jsonlLines(input)) {
    if ("problem" in entry) warnings.push({ line: entry.line, message: entry.problem });
    else if (typeof entry.value !== "object" || entry.value === null || Array.isArray(entry.value))
      warnings.push({ line: entry.line, message: "not a JSON object; skipped" });
    else {
      const value = admit(entry.value as JsonObject, lines);
      if (value !== undefined) lines.push({ line: entry.line, value });
    }
  }
  return lines;
}

/** A string field of a line, or undefined. */
export function stringField(value: JsonObject | undefined, key: string): string | undefined {
  const field = value?.[key];
  return typeof field === "string" ? field : undefined;
}

/** An object field of a line, or undefined. */
export function objectField(value: JsonObject | undefined, key: string): JsonObject | undefined {
  const field = value?.[key];
  return typeof field === "object" && field !== null && !Array.isArray(field) ? field : undefined;
}

/** Epoch milliseconds of an ISO timestamp or a number of milliseconds; `fallback` when neither. */
export function epochMs(value: unknown, fallback: number): number {
  const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

/** `warnings` sorted by line number (stable: warnings about one line keep their order). */
export function inLineOrder(warnings: TranscriptWarning[]): TranscriptWarning[] {
  return warnings.sort((a, b) => a.line - b.line);
}

/** What a message's `content` is, for a warning: `a list of 2 blocks`, `a string`, `null`, … */
export function contentKind(content: JsonValue | undefined): string {
  if (Array.isArray(content)) return `a list of ${content.length} block${content.length === 1 ? "" : "s"}`;
  if (content === undefined || content === null) return String(content);
  return `a ${typeof content}`;
}
