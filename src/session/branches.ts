/**
 * Forks of a session's conversation: a prompt sent with a `parentId` continues from that message, and
 * what came after it is kept as a branch; the branches listed, switched to, exported alone; and the
 * check a restored state's branches pass.
 *
 * `messages` stays the active branch, so everything that reads the conversation is unchanged; the
 * others are `branches` (`SessionState.branches`), each stored as the id it continues from and its own
 * messages.
 *
 * @module
 */

import type { Result } from "../agent/result.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { unpairedToolCall } from "../state/tool-call-pairs.ts";
import type { Message } from "../types.ts";
import { type BranchProblem, type BranchTree, branchTree } from "./branches-tree.ts";
import type { LiveState } from "./live-state.ts";
import { busy } from "./session-refusals.ts";
import type { SessionState, StoredBranch } from "./session-state.ts";

/** One branch of a session's conversation, as `session.branches()` lists it. */
export interface SessionBranch {
  /** The id of the branch's last message: what `switchBranch` and `export({ branch })` take. `null` only for an empty conversation. */
  leafId: string | null;
  /**
   * The id of the message the branch departs from (the last one it shares with another branch), or
   * `null` when it differs from the start.
   */
  parentId: string | null;
  /** The text of the first prompt after the fork (the first prompt of the conversation when it has no fork), up to 120 characters. */
  title: string;
  /** How many messages the branch's whole conversation holds, from the start. */
  messageCount: number;
  /** Whether this is the active branch (`messages`, what the next prompt continues). */
  active: boolean;
}

/** The options of `session.export`. */
export interface ExportOptions {
  /**
   * A branch's leaf id (see `session.branches()`): the state holds that branch's conversation alone, as
   * its `messages`, with no other branches. Default: the whole session, every branch kept.
   */
  branch?: string;
}

const TITLE_CHARS = 120;

function branchError(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "BRANCH_INVALID", path });
}

/** Whether `message`'s tool calls need results after it: such a message cannot be continued otherwise. */
function awaitsResults(message: Message): boolean {
  return message.role === "assistant" && message.content.some((part) => part.type === "tool_call");
}

/**
 * What is wrong with a restored state's branches, or undefined: they must form one tree with the
 * active branch (every id once, every branch continuing from a message that is there, no circle), and
 * each branch, joined to the message it continues from, keeps every tool call answered.
 */
export function branchesProblem(
  messages: readonly Message[],
  branches: readonly StoredBranch[],
): BranchProblem | undefined {
  const tree = branchTree(messages, branches);
  if (!("pathTo" in tree)) return tree;
  for (const [index, branch] of branches.entries()) {
    const parent = branch.parentId === null ? undefined : tree.message(branch.parentId);
    if (branch.messages[0]?.role === "tool_result" && (parent === undefined || !awaitsResults(parent)))
      return {
        path: `branches.${index}.messages.0`,
        problem: "tool results that answer no tool call before them",
      };
    const joined = parent === undefined ? branch.messages : [parent, ...branch.messages];
    const unpaired = unpairedToolCall(joined);
    if (unpaired === undefined) continue;
    const at = Number(unpaired.path.slice("messages.".length)) - (parent === undefined ? 0 : 1);
    return {
      path: at < 0 ? `branches.${index}.parentId` : `branches.${index}.messages.${at}`,
      problem: unpaired.problem,
    };
  }
  return undefined;
}

/** Whether a prompt with `parentId` forks: it names a message other than the conversation's last. */
export function forks(state: LiveState, parentId: string | null | undefined): boolean {
  return parentId !== undefined && parentId !== (state.messages.at(-1)?.id ?? null);
}

/**
 * Refuses a fork that cannot be made now, or makes it: a `parentId` that names no message of the
 * active branch, or one whose tool calls wait for results, is a ConfigError `BRANCH_INVALID`; a run
 * in flight is SESSION_BUSY (paused approvals are refused before, as for any prompt). Made, the
 * messages after `parentId` become a branch and the conversation continues from `parentId`; what it
 * returns then puts the conversation back as it was (for a prompt that never reaches it).
 */
export function fork(state: LiveState, parentId: string | null): ConfigError | (() => void) {
  const index = state.messages.findIndex((message) => message.id === parentId);
  if (parentId !== null && index === -1)
    return branchError(
      `parentId ${parentId} names no message of the active branch: to continue another branch, switchBranch() to it first`,
      "parentId",
    );
  const parent = state.messages[index];
  if (parent !== undefined && awaitsResults(parent))
    return branchError(
      `parentId ${parentId} names a message whose tool calls need their results next: fork after those`,
      "parentId",
    );
  if (state.current !== undefined || state.resuming)
    return busy(
      "A run is in flight: fork when it has ended (a prompt queued behind it cannot fork)",
      "parentId",
    );
  const own = state.messages.splice(index + 1);
  const stored: StoredBranch = { parentId, messages: own };
  state.branches.push(stored);
  const { compaction } = state;
  dropCompactionOff(state);
  return () => {
    state.branches.splice(state.branches.indexOf(stored), 1);
    state.messages.push(...own);
    state.compaction = compaction;
  };
}

/** Forgets a compaction whose first kept message left the active branch (its summary was of another path). */
function dropCompactionOff(state: LiveState): void {
  const kept = state.compaction?.firstKeptId;
  if (kept !== undefined && !state.messages.some((message) => message.id === kept))
    state.compaction = undefined;
}

/** The first prompt's text among `messages` (else their first text), up to {@link TITLE_CHARS}. */
function titleOf(messages: readonly Message[]): string {
  const text = (message: Message | undefined): string => {
    if (message === undefined) return "";
    for (const part of message.content)
      if (part.type === "text" && part.text.trim() !== "") return part.text.trim();
    return "";
  };
  const prompt = messages.find((message) => message.role === "user" && text(message) !== "");
  const words = text(prompt) || text(messages.find((message) => text(message) !== ""));
  return words.length > TITLE_CHARS ? `${words.slice(0, TITLE_CHARS - 1)}…` : words;
}

/**
 * A branch ending at `leaf`, and when its own first message was written: its own messages start after
 * the last message it shares with another branch.
 */
function describe(tree: BranchTree, leaf: string, active: boolean): { branch: SessionBranch; at: number } {
  const path = tree.pathTo(leaf);
  let start = path.length - 1;
  while (start > 0 && tree.childCount((path[start - 1] as Message).id) < 2) start--;
  const branch: SessionBranch = {
    leafId: leaf,
    parentId: start > 0 ? (path[start - 1] as Message).id : null,
    title: titleOf(path.slice(start)) || titleOf(path),
    messageCount: path.length,
    active,
  };
  return { branch, at: path[start]?.timestamp ?? 0 };
}

/** The session's tree (its state is checked at restore and kept whole by forks and switches). */
function treeOf(state: LiveState): BranchTree {
  return branchTree(state.messages, state.branches) as BranchTree;
}

/**
 * Every branch of the session's conversation, the active one included, oldest first (by when their
 * own first message was written; by leaf id within one millisecond).
 */
export function listBranches(state: LiveState): SessionBranch[] {
  const tree = treeOf(state);
  const activeLeaf = state.messages.at(-1)?.id;
  const listed = tree.leaves().map((leaf) => describe(tree, leaf, leaf === activeLeaf));
  if (activeLeaf !== undefined && !tree.isLeaf(activeLeaf)) listed.push(describe(tree, activeLeaf, true));
  if (activeLeaf === undefined) {
    const empty = { leafId: null, parentId: null, title: "", messageCount: 0, active: true };
    listed.push({ branch: empty, at: Number.POSITIVE_INFINITY });
  }
  // Written in the same millisecond: by leaf id, so the order is the same whichever branch is active.
  const leaf = (item: { branch: SessionBranch }) => item.branch.leafId ?? "";
  return listed
    .sort((a, b) => a.at - b.at || (leaf(a) < leaf(b) ? -1 : leaf(a) > leaf(b) ? 1 : 0))
    .map(({ branch }) => branch);
}

/**
 * Makes the branch that ends at `leafId` the active one: its conversation becomes `messages`, and the
 * one active before is kept as a branch. Refused (nothing changes) while a run is in flight
 * (SESSION_BUSY), while tool calls wait for approval (APPROVAL_PENDING), or for an id that is no
 * branch's last message (BRANCH_INVALID).
 */
export function switchBranch(
  state: LiveState,
  leafId: unknown,
): Result<SessionBranch[], ConfigError, undefined> {
  const refused = (error: ConfigError) => ({ ok: false as const, error, partial: undefined });
  if (typeof leafId !== "string")
    return refused(branchError("switchBranch takes a branch's leaf id (a string)", "leafId"));
  if (state.current !== undefined || state.resuming)
    return refused(busy("A run is in flight: switch branches when it has ended", "leafId"));
  if (state.paused !== undefined)
    return refused(
      new ConfigError(
        "Tool calls wait for approval or answers: decide them with resume() before switching branches",
        {
          code: "APPROVAL_PENDING",
        },
      ),
    );
  const tree = treeOf(state);
  if (leafId !== state.messages.at(-1)?.id) {
    if (!tree.isLeaf(leafId))
      return refused(branchError(`${leafId} is not the last message of a branch`, "leafId"));
    // The stored branches keep their order, and the one active before comes last (it is the only other leaf).
    const order = state.branches.map((branch) => (branch.messages.at(-1) as Message).id);
    const path = tree.pathTo(leafId);
    state.branches = tree.branchesAround(path, order);
    state.messages.splice(0, state.messages.length, ...path);
    dropCompactionOff(state);
  }
  return { ok: true, value: listBranches(state) };
}

/**
 * `state` (a whole export) cut down to the branch that ends at `leafId`: its conversation as
 * `messages`, no other branches; approvals and compaction only where they belong to that path. Throws
 * a ConfigError `BRANCH_INVALID` for an id that is no branch's last message.
 */
export function exportBranch(state: SessionState, leafId: unknown): SessionState {
  const { branches = [], ...rest } = state;
  const activeLeaf = state.messages.at(-1)?.id;
  if (leafId === activeLeaf) return rest;
  const tree = branchTree(state.messages, branches);
  if (typeof leafId !== "string" || !("pathTo" in tree) || !tree.isLeaf(leafId))
    throw branchError(`${String(leafId)} is not the last message of a branch`, "branch");
  const messages = tree.pathTo(leafId);
  const cut: SessionState = { ...rest, messages, pendingApprovals: [], pendingResults: [] };
  // What waits belongs to the active branch's last turn, not to this one.
  delete cut.pendingQuestions;
  const kept = cut.compaction?.firstKeptId;
  if (kept !== undefined && !messages.some((message) => message.id === kept)) delete cut.compaction;
  return cut;
}
