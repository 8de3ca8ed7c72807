/**
 * The tree a forked conversation makes: the active branch (`messages`) and the stored branches (each
 * the id it continues from and its own messages) as one tree of messages linked to their parents;
 * its checks (what a restore refuses), the path from the start to a message, and the tree cut into
 * branches again around another active path (what a switch stores).
 *
 * @module
 */

import type { Message } from "../types.ts";
import type { StoredBranch } from "./session-state.ts";

/** One message of the tree, with its parent's id (`null` at the start of the conversation). */
interface TreeNode {
  message: Message;
  parent: string | null;
}

/** A problem with the stored branches: the path of the field at fault and what is wrong. */
export interface BranchProblem {
  /** The path of the field at fault in the state (`branches.0.parentId`). */
  path: string;
  /** What is wrong with it. */
  problem: string;
}

/** The messages of a conversation and its branches, linked by parent, with each node's children. */
export class BranchTree {
  readonly #nodes = new Map<string, TreeNode>();
  /** Child ids by parent id (`null`: the messages a conversation starts with), in the order added. */
  readonly #children = new Map<string | null, string[]>();

  /** Use {@link branchTree}, which turns what this throws into a {@link BranchProblem}. */
  constructor(messages: readonly Message[], branches: readonly StoredBranch[]) {
    this.#chain(messages, null, "messages");
    // An empty branch never gets here: the state's shape refuses it, and forks and switches store none.
    for (const [index, branch] of branches.entries())
      this.#chain(branch.messages, branch.parentId, `branches.${index}.messages`);
    for (const [index, branch] of branches.entries()) {
      if (branch.parentId !== null && !this.#nodes.has(branch.parentId))
        throw problem(
          `branches.${index}.parentId`,
          `message ${branch.parentId} is in no branch of the conversation`,
        );
    }
    this.#checkRoots(branches);
  }

  #chain(messages: readonly Message[], parent: string | null, path: string): void {
    let previous = parent;
    for (const [index, message] of messages.entries()) {
      if (this.#nodes.has(message.id))
        throw problem(`${path}.${index}.id`, `message id ${message.id} appears twice in the conversation`);
      this.#nodes.set(message.id, { message, parent: previous });
      const siblings = this.#children.get(previous);
      if (siblings === undefined) this.#children.set(previous, [message.id]);
      else siblings.push(message.id);
      previous = message.id;
    }
  }

  /** Every branch reaches the start of the conversation (no parent links in a circle). */
  #checkRoots(branches: readonly StoredBranch[]): void {
    const rooted = new Set<string>();
    for (const [index, branch] of branches.entries()) {
      const walked = new Set<string>();
      for (let id = branch.parentId; id !== null && !rooted.has(id); ) {
        if (walked.has(id))
          throw problem(`branches.${index}.parentId`, `the branches' parent links form a cycle at ${id}`);
        walked.add(id);
        id = (this.#nodes.get(id) as TreeNode).parent;
      }
      for (const id of walked) rooted.add(id);
    }
  }

  /** The message with this id, if the tree holds it. */
  message(id: string): Message | undefined {
    return this.#nodes.get(id)?.message;
  }

  /** Whether a message has no child: the last message of a branch. */
  isLeaf(id: string): boolean {
    return this.#nodes.has(id) && !this.#children.has(id);
  }

  /** The ids of the messages nothing continues from, in the order the tree was built. */
  leaves(): string[] {
    return [...this.#nodes.keys()].filter((id) => !this.#children.has(id));
  }

  /** The id of a message's parent (`null` at the start). */
  parentOf(id: string): string | null {
    return this.#nodes.get(id)?.parent ?? null;
  }

  /** How many messages continue from this one (from the start, for `null`). */
  childCount(id: string | null): number {
    return this.#children.get(id)?.length ?? 0;
  }

  /** The conversation from its start down to the message `id` (included), in order. */
  pathTo(id: string): Message[] {
    const path: Message[] = [];
    for (let node = this.#nodes.get(id); node !== undefined; ) {
      path.push(node.message);
      node = node.parent === null ? undefined : this.#nodes.get(node.parent);
    }
    return path.reverse();
  }

  /**
   * The branches to store besides the active path `active`: for each leaf off it (those of `order`
   * first, in that order, then the others), the messages from the leaf back to the first one already
   * stored, with the id they continue from. Nested forks come out as branches of branches.
   */
  branchesAround(active: readonly Message[], order: readonly string[]): StoredBranch[] {
    const covered = new Set(active.map((message) => message.id));
    const leaves = [...new Set([...order.filter((id) => this.isLeaf(id)), ...this.leaves()])];
    const branches: StoredBranch[] = [];
    for (const leaf of leaves) {
      const own: Message[] = [];
      let id: string | null = leaf;
      while (id !== null && !covered.has(id)) {
        const node = this.#nodes.get(id) as TreeNode;
        own.push(node.message);
        covered.add(id);
        id = node.parent;
      }
      if (own.length > 0) branches.push({ parentId: id, messages: own.reverse() });
    }
    return branches;
  }
}

/** What the tree's constructor throws, caught by {@link branchTree}. */
class Problem {
  readonly found: BranchProblem;
  constructor(found: BranchProblem) {
    this.found = found;
  }
}

function problem(path: string, words: string): Problem {
  return new Problem({ path, problem: words });
}

/**
 * The tree of `messages` (the active branch) and `branches`, or the first problem with them: ids that
 * repeat, a branch that continues from no message of the tree, links in a cycle.
 */
export function branchTree(
  messages: readonly Message[],
  branches: readonly StoredBranch[],
): BranchTree | BranchProblem {
  try {
    return new BranchTree(messages, branches);
  } catch (thrown) {
    if (thrown instanceof Problem) return thrown.found;
    throw thrown;
  }
}
