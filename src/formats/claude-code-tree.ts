/**
 * The tree of a Claude Code transcript: lines linked by `uuid` / `parentUuid`, its leaves, and the
 * path from a leaf back to where the conversation starts (its first line, a compaction boundary, or a
 * parent the file does not hold). Broken links (duplicate uuids, cycles, missing parents) become
 * warnings, never a hang.
 *
 * @module
 */

import { type ObjectLine, stringField } from "./transcript-lines.ts";
import type { TranscriptBranch, TranscriptWarning } from "./transcript-types.ts";

/** A line that takes part in the tree (it has a `uuid`), with its position among all lines. */
export interface TreeLine extends ObjectLine {
  /** Index in the list of all object lines. */
  index: number;
  uuid: string;
  parent: string | undefined;
  type: string | undefined;
  sidechain: boolean;
}

/** The tree: lines by uuid, and the uuids that have a conversational (user or assistant) child. */
export interface ClaudeCodeTree {
  byUuid: Map<string, TreeLine>;
  /** Tree lines in file order. */
  ordered: TreeLine[];
  hasChild: Set<string>;
}

const CONVERSATIONAL = new Set(["user", "assistant"]);

/** Builds the tree of `lines`; a repeated uuid keeps its first line and warns about the others. */
export function claudeCodeTree(lines: ObjectLine[], warnings: TranscriptWarning[]): ClaudeCodeTree {
  const byUuid = new Map<string, TreeLine>();
  const ordered: TreeLine[] = [];
  for (const [index, { line, value }] of lines.entries()) {
    const uuid = stringField(value, "uuid");
    if (uuid === undefined) continue;
    if (byUuid.has(uuid)) {
      warnings.push({ line, message: `uuid ${uuid} repeats line ${byUuid.get(uuid)?.line}; skipped` });
      continue;
    }
    const node: TreeLine = {
      line,
      value,
      index,
      uuid,
      parent: stringField(value, "parentUuid"),
      type: stringField(value, "type"),
      sidechain: value.isSidechain === true,
    };
    byUuid.set(uuid, node);
    ordered.push(node);
  }
  const hasChild = new Set<string>();
  for (const node of ordered)
    if (node.parent !== undefined && CONVERSATIONAL.has(node.type ?? "")) hasChild.add(node.parent);
  return { byUuid, ordered, hasChild };
}

/** The user and assistant lines nothing continues from, in file order. */
export function leaves(tree: ClaudeCodeTree): TreeLine[] {
  return tree.ordered.filter((node) => CONVERSATIONAL.has(node.type ?? "") && !tree.hasChild.has(node.uuid));
}

/**
 * The active leaf: the last leaf of the main conversation, or of a subagent when the file holds only
 * subagent lines (a sidechain file). When every line has a child (the lines form a `parentUuid`
 * cycle), the last user or assistant line: {@link pathTo} then reads back from it and warns where the
 * cycle closes.
 */
export function activeLeaf(tree: ClaudeCodeTree): TreeLine | undefined {
  const all = leaves(tree);
  const conversational = tree.ordered.filter((node) => CONVERSATIONAL.has(node.type ?? ""));
  const candidates = all.length > 0 ? all : conversational;
  return candidates.findLast((node) => !node.sidechain) ?? candidates.at(-1);
}

/** Whether a line is a compaction boundary: the conversation the model sees starts after it. */
function isCompactBoundary(node: TreeLine): boolean {
  return node.type === "system" && stringField(node.value, "subtype") === "compact_boundary";
}

/** The lines from the start of the conversation down to `leaf`, in order. */
export function pathTo(tree: ClaudeCodeTree, leaf: TreeLine, warnings: TranscriptWarning[]): TreeLine[] {
  const path: TreeLine[] = [];
  const seen = new Set<string>();
  for (let node: TreeLine | undefined = leaf; node !== undefined; ) {
    if (seen.has(node.uuid)) {
      warnings.push({
        line: node.line,
        message: `parentUuid cycle at ${node.uuid}; the conversation starts after it`,
      });
      break;
    }
    seen.add(node.uuid);
    path.push(node);
    if (isCompactBoundary(node) || node.parent === undefined) break;
    const parent = tree.byUuid.get(node.parent);
    if (parent === undefined && !node.sidechain)
      warnings.push({
        line: node.line,
        message: `parent ${node.parent} is not in the file; the conversation starts here`,
      });
    node = parent;
  }
  return path.reverse();
}

/** The tree's `parentUuid` cycles, each as its lines in file order (a line that is its own parent too). */
function cycles(tree: ClaudeCodeTree): TreeLine[][] {
  const found: TreeLine[][] = [];
  // 1: on the walk in progress; 2: known to lead to a root, a missing parent or a cycle already found.
  const state = new Map<string, 1 | 2>();
  for (const start of tree.ordered) {
    const walk: TreeLine[] = [];
    let node: TreeLine | undefined = start;
    while (node !== undefined && state.get(node.uuid) === undefined) {
      state.set(node.uuid, 1);
      walk.push(node);
      node = node.parent === undefined ? undefined : tree.byUuid.get(node.parent);
    }
    if (node !== undefined && state.get(node.uuid) === 1)
      found.push(walk.slice(walk.indexOf(node)).sort((a, b) => a.index - b.index));
    for (const walked of walk) state.set(walked.uuid, 2);
  }
  return found;
}

/**
 * Warns about each `parentUuid` cycle the conversation's `path` does not pass through (the reader
 * would otherwise leave its lines out without a word; a cycle on the path has its own warning).
 */
export function warnOffPathCycles(
  tree: ClaudeCodeTree,
  path: readonly TreeLine[],
  warnings: TranscriptWarning[],
): void {
  const onPath = new Set(path.map((node) => node.uuid));
  for (const cycle of cycles(tree)) {
    if (cycle.some((node) => onPath.has(node.uuid))) continue;
    const lines = cycle.map((node) => node.line).join(", ");
    warnings.push({
      line: (cycle[0] as TreeLine).line,
      message: `parentUuid links form a cycle (lines ${lines}): no conversation leads to them; skipped`,
    });
  }
}

/** A leaf as a branch the caller can choose. */
export function branchOf(node: TreeLine): TranscriptBranch {
  const agentId = stringField(node.value, "agentId");
  return { leaf: node.uuid, line: node.line, sidechain: node.sidechain, ...(agentId ? { agentId } : {}) };
}
