/**
 * Permission policies: a mode and allow/deny lists of tool names and `*` patterns that decide tool
 * calls before anybody is asked. The policy is plain data: a run takes it as its `permissions`
 * option, a session keeps it in its state (signed with the `approvalSecret`, so a client holding the
 * state cannot loosen it) and changes it between runs with `setPermissions`.
 *
 * Who decides a tool call, in order (the first row that answers it decides):
 *
 * | #  | who                                               | what it answers                                                                              |
 * | -- | ------------------------------------------------- | -------------------------------------------------------------------------------------------- |
 * | 1  | the policy's `deny` list                          | denied: the call never runs, and no hook sees it                                             |
 * | 2  | the policy's `plan` mode                          | denied, unless the tool declared `sideEffects: false`                                        |
 * | 3  | `preToolUse` hooks (and `canUseTool`)             | deny, stop the run, change the arguments, or `ask` a person                                  |
 * | 4  | the tool's `input` schema                         | arguments it refuses fail the call                                                           |
 * | 5  | a standing "always deny" (a decision's `always`)  | denied                                                                                       |
 * | 6  | a standing "always allow" (a decision's `always`) | runs without asking, unless a hook asked                                                     |
 * | 7  | the tool's `needsApproval` and hooks' `ask`       | when neither asks for a person, the call runs                                                |
 * | 8  | the policy's `bypass` mode                        | runs without asking (a hook's `ask` included)                                                |
 * | 9  | the policy's `allow` list                         | runs without asking (a hook's `ask` included)                                                |
 * | 10 | `acceptEdits` and the tool's class                | runs without asking when the tool's `permissionClass` is in `acceptClasses`                  |
 * | 11 | a person                                          | the run pauses with stopReason `approval` (docs/approvals.md), or the bridge asks            |
 *
 * Rows 1, 2, 8, 9 and 10 emit a `permission-decision` event. A call a person approved is checked
 * against rows 1 and 2 again when it runs, under the policy then in force.
 *
 * This module holds the types; the checks and decisions are in permission-rules.ts.
 *
 * @module
 */

import type { Tool } from "./define-tool.ts";

/**
 * How a policy treats calls that would wait for a person, and which calls it lets run at all:
 * - `default`: nothing more than the lists; calls that need approval wait for a person.
 * - `acceptEdits`: calls of tools whose `permissionClass` is in `acceptClasses` run without asking.
 * - `plan`: only tools declared `sideEffects: false` run; every other call is denied (the model reads
 *   why), so the model can look around and plan, but not change anything.
 * - `bypass`: every call runs without asking (the deny list and hooks' denials still hold).
 */
export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypass";

/**
 * A permission policy: plain JSON, kept in a session's state (`permissions`) and changed between
 * runs with `session.setPermissions`. Patterns are tool names where `*` stands for any run of
 * characters: `"search"`, `"mcp_notes_*"`, `"*"`.
 *
 * @example
 * ```ts
 * const permissions: PermissionPolicy = { mode: "acceptEdits", allow: ["search"], deny: ["mcp_shell_*"] };
 * ```
 */
export interface PermissionPolicy {
  /** The mode (see {@link PermissionMode}). Default `"default"`. */
  mode?: PermissionMode;
  /** Tools that run without asking, even when they or a hook would ask ("always allow"). Default none. */
  allow?: string[];
  /** Tools that never run: the model gets a denial it reads, and no hook is asked. Wins over everything. */
  deny?: string[];
  /** The permission classes `acceptEdits` runs without asking. Default `["edit"]`. */
  acceptClasses?: string[];
}

/** Who in the policy decided a call (see the table in the module docs). */
export type PermissionRule = "deny-list" | "plan" | "bypass" | "allow-list" | "accept-edits";

/** What the policy decided about one call. */
export interface PermissionVerdict {
  /** `deny`: the call does not run; `allow`: it runs without asking a person. */
  decision: "allow" | "deny";
  /** Which part of the policy decided. */
  rule: PermissionRule;
  /** The pattern of the list that matched (`deny-list`, `allow-list`), or the accepted class (`accept-edits`). */
  match?: string;
}

/** The classes `acceptEdits` runs without asking when a policy names none. */
export const DEFAULT_ACCEPT_CLASSES: readonly string[] = ["edit"];

/**
 * A policy made ready to decide calls (permission-rules.ts builds it when a run has a policy): the
 * tool runner asks it, and needs none of its code when there is no policy.
 */
export interface PolicyDecider {
  /** Whether the policy refuses a call of `tool` outright (rows 1 and 2); undefined: it goes on. */
  refusal(tool: Pick<Tool<unknown>, "name" | "sideEffects">): PermissionVerdict | undefined;
  /** Whether the policy runs a call of `tool` that would wait for a person (rows 8 to 10); undefined: ask. */
  approval(tool: Pick<Tool<unknown>, "name" | "permissionClass">): PermissionVerdict | undefined;
  /** The result text the model reads for a call the policy refused. */
  refusedOutput(toolName: string, verdict: PermissionVerdict): string;
}

/**
 * A valid policy with every field filled in (defaults for the missing ones), as a fresh copy: what a
 * session keeps, exports and signs, and what `session.permissions()` shows.
 */
export function resolvePermissions(policy: PermissionPolicy | undefined): Required<PermissionPolicy> {
  return {
    mode: policy?.mode ?? "default",
    allow: [...(policy?.allow ?? [])],
    deny: [...(policy?.deny ?? [])],
    acceptClasses: [...(policy?.acceptClasses ?? DEFAULT_ACCEPT_CLASSES)],
  };
}
