/**
 * The entries of a pi session file and the path to its leaf. Version 1 files are a flat list (each
 * entry follows the one before); versions 2 and 3 link entries by `id` / `parentId`, and the leaf is
 * the last entry in the file, as pi reads it.
 *
 * @module
 */

import { type ObjectLine, stringField } from "./transcript-lines.ts";
import type { TranscriptWarning } from "./transcript-types.ts";

/** An entry (every line after the header), with its id and parent. */
export interface PiEntry extends ObjectLine {
  /** Index among all object lines (the header is 0). */
  index: number;
  id: string;
  parent: string | undefined;
  type: string;
}

/** The entries of a file whose header says `version`; entries without an id (v2+) are skipped. */
export function piEntries(lines: ObjectLine[], version: number, warnings: TranscriptWarning[]): PiEntry[] {
  const entries: PiEntry[] = [];
  const seen = new Map<string, number>();
  for (const [index, { line, value }] of lines.entries()) {
    if (index === 0) continue;
    const type = stringField(value, "type") ?? "";
    if (version < 2) {
      const previous = entries.at(-1);
      entries.push({ line, value, index, id: `pi-line-${line}`, parent: previous?.id, type });
      continue;
    }
    const id = stringField(value, "id");
    if (id === undefined) {
      warnings.push({ line, message: `a ${type || "line"} entry without an id; skipped` });
      continue;
    }
    if (seen.has(id)) {
      warnings.push({ line, message: `id ${id} repeats line ${seen.get(id)}; skipped` });
      continue;
    }
    seen.set(id, line);
    entries.push({ line, value, index, id, parent: stringField(value, "parentId"), type });
  }
  return entries;
}

/** The entries from the root down to `leaf`; a cycle or a missing parent ends the walk with a warning. */
export function piPath(byId: Map<string, PiEntry>, leaf: PiEntry, warnings: TranscriptWarning[]): PiEntry[] {
  const path: PiEntry[] = [];
  const seen = new Set<string>();
  for (let entry: PiEntry | undefined = leaf; entry !== undefined; ) {
    if (seen.has(entry.id)) {
      warnings.push({
        line: entry.line,
        message: `parentId cycle at ${entry.id}; the conversation starts after it`,
      });
      break;
    }
    seen.add(entry.id);
    path.push(entry);
    if (entry.parent === undefined) break;
    const parent = byId.get(entry.parent);
    if (parent === undefined)
      warnings.push({
        line: entry.line,
        message: `parent ${entry.parent} is not in the file; the conversation starts here`,
      });
    entry = parent;
  }
  return path.reverse();
}
