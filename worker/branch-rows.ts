/**
 * A forked session's other branches (`SessionState.branches`) in their own rows, beside the head and
 * the messages (worker/session-rows.ts): written only when they change (a fork or a switch), so a save
 * after a turn of the active branch never rewrites them, however large they are.
 *
 * @module
 */

import type { StoredBranch } from "wisp-agent";

/** Characters per stored part (as the messages' parts: a SQLite value may take 2 MB). */
const PART_CHARS = 512 * 1024;

/**
 * What tells one set of branches from another without reading them: each branch's parent and last
 * message, and its length. Messages are never edited, so a branch is known by where it hangs and ends.
 */
function branchesKey(branches: readonly StoredBranch[] | undefined): string {
  return (branches ?? [])
    .map((branch) => `${branch.parentId ?? ""}>${branch.messages.at(-1)?.id ?? ""}#${branch.messages.length}`)
    .join(",");
}

/** The rows of a session's branches. */
export class BranchRows {
  readonly #sql: SqlStorage;
  #index: { key: string; chars: number } | undefined;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    sql.exec("CREATE TABLE IF NOT EXISTS session_branches (part INTEGER PRIMARY KEY, json TEXT NOT NULL)");
    sql.exec(
      `CREATE TABLE IF NOT EXISTS session_branch_index (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL,
        chars INTEGER NOT NULL)`,
    );
  }

  /** The key of the stored branches ("" for none) and the characters of their JSON. */
  index(): { key: string; chars: number } {
    this.#index ??= this.#sql
      .exec<{ key: string; chars: number }>("SELECT key, chars FROM session_branch_index WHERE id = 1")
      .toArray()[0] ?? { key: "", chars: 0 };
    return this.#index;
  }

  /** The JSON the branches would take, or undefined when the stored ones are the same (by key). */
  changed(branches: readonly StoredBranch[] | undefined): { key: string; json: string } | undefined {
    const key = branchesKey(branches);
    if (key === this.index().key) return undefined;
    return { key, json: key === "" ? "" : JSON.stringify(branches) };
  }

  /** Replaces the stored branches (inside the caller's transaction). */
  write(changed: { key: string; json: string }): void {
    this.#sql.exec("DELETE FROM session_branches");
    for (let start = 0, part = 0; start < changed.json.length; start += PART_CHARS, part++)
      this.#sql.exec(
        "INSERT INTO session_branches VALUES (?, ?)",
        part,
        changed.json.slice(start, start + PART_CHARS),
      );
    this.#sql.exec(
      "INSERT OR REPLACE INTO session_branch_index VALUES (1, ?, ?)",
      changed.key,
      changed.json.length,
    );
    this.#index = { key: changed.key, chars: changed.json.length };
  }

  /** The stored branches' JSON ("" for none). */
  json(): string {
    if (this.index().key === "") return "";
    const rows = this.#sql.exec<{ json: string }>("SELECT json FROM session_branches ORDER BY part");
    return [...rows].map((row) => row.json).join("");
  }

  /** Removes every row. */
  clear(): void {
    this.#sql.exec("DELETE FROM session_branches");
    this.#sql.exec("DELETE FROM session_branch_index");
    this.#index = { key: "", chars: 0 };
  }
}
