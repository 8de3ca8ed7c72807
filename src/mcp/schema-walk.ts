/**
 * What a schema check's walk carries and records: {@link SchemaIssue}, the {@link Walk} state shared
 * by one call's walks, and issues recorded (at most 20) with their paths and shown values.
 *
 * @module
 */

import type { Schema } from "./json-values.ts";
import type { Patterns } from "./schema-patterns.ts";

/** One thing wrong with a value: where (`items.2.name`, `""` for the value itself) and what. */
export interface SchemaIssue {
  /**
   * Where: the keys and indexes from the root, joined by dots (`items.2.name`); `""` for the value itself.
   */
  path: string;
  /** What is wrong there. */
  message: string;
}

/** At most this many issues are reported; a model needs the first few, not thousands. */
const MAX_ISSUES = 20;

/** The state of one walk over a schema and a value: what it found, and what a call's walks share. */
export interface Walk {
  root: Schema;
  issues: SchemaIssue[];
  /** Shared by the walks of one call, the combinators' inner walks included. */
  budget: { steps: number };
  patterns: Patterns;
}

/** Records an issue at `path`, unless {@link MAX_ISSUES} are recorded already. */
export function report(walk: Walk, path: string, message: string): void {
  if (walk.issues.length < MAX_ISSUES) walk.issues.push({ path, message });
}

/** The path of `key` inside `path` (`items.2.name`; `""` is the value itself). */
export const join = (path: string, key: string | number): string =>
  path === "" ? String(key) : `${path}.${key}`;
/** A value as an issue shows it: its JSON, cut at 40 characters. */
export const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};
