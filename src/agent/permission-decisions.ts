/**
 * The decisions of a permission policy (see permission-policy.ts for the order of who decides): `*`
 * patterns, the deny list and plan mode that refuse a call, bypass, the allow list and acceptEdits that
 * answer for the person, and the {@link PolicyDecider} a run asks. Loaded only by runs that have a
 * policy, and it imports only types: a lazily loaded module that shared a module with the package's
 * entry would move that module into a chunk every program loads.
 *
 * @module
 */

import type { Tool } from "./define-tool.ts";
import type { PermissionPolicy, PermissionVerdict, PolicyDecider } from "./permission-policy.ts";

/** Whether the tool name `name` matches `pattern` (`*` stands for any run of characters). */
export function matchesPattern(pattern: string, name: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === name;
  const first = parts[0] as string;
  const last = parts.at(-1) as string;
  if (!name.startsWith(first) || name.length < first.length + last.length) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found === -1 || found + part.length > name.length - last.length) return false;
    at = found + part.length;
  }
  return name.endsWith(last);
}

/** The first of `patterns` that `name` matches, or undefined. */
function firstMatch(patterns: readonly string[] | undefined, name: string): string | undefined {
  return patterns?.find((pattern) => matchesPattern(pattern, name));
}

/**
 * Whether the policy refuses a call of `tool` outright (rows 1 and 2 of the table): the deny list, then
 * plan mode for a tool not declared free of side effects. Undefined when it lets the call go on.
 */
export function policyRefusal(
  policy: PermissionPolicy | undefined,
  tool: Pick<Tool<unknown>, "name" | "sideEffects">,
): PermissionVerdict | undefined {
  if (policy === undefined) return undefined;
  const denied = firstMatch(policy.deny, tool.name);
  if (denied !== undefined) return { decision: "deny", rule: "deny-list", match: denied };
  if (policy.mode === "plan" && tool.sideEffects !== false) return { decision: "deny", rule: "plan" };
  return undefined;
}

/**
 * Whether the policy lets a call of `tool` that would wait for a person run without asking (rows 8 to
 * 10): `bypass`, the allow list, or `acceptEdits` with the tool's class accepted. Undefined: ask.
 */
export function policyApproval(
  policy: PermissionPolicy | undefined,
  tool: Pick<Tool<unknown>, "name" | "permissionClass">,
): PermissionVerdict | undefined {
  if (policy === undefined) return undefined;
  if (policy.mode === "bypass") return { decision: "allow", rule: "bypass" };
  const allowed = firstMatch(policy.allow, tool.name);
  if (allowed !== undefined) return { decision: "allow", rule: "allow-list", match: allowed };
  // A run's policy comes filled in (resolvePermissions); a policy without acceptClasses accepts none.
  const { permissionClass } = tool;
  if (
    policy.mode === "acceptEdits" &&
    permissionClass !== undefined &&
    policy.acceptClasses?.includes(permissionClass)
  )
    return { decision: "allow", rule: "accept-edits", match: permissionClass };
  return undefined;
}

/** The result text the model reads for a call the policy refused. */
function refusedOutput(toolName: string, verdict: PermissionVerdict): string {
  if (verdict.rule === "plan")
    return `Not run: the permission policy is in plan mode, where only tools without side effects run, and "${toolName}" may have side effects. Describe what you would do instead.`;
  return `Denied by the permission policy: "${toolName}" matches its deny list (${JSON.stringify(verdict.match)})`;
}

/** `policy` (already checked and filled in by `resolvePermissions`) made ready to decide a run's calls. */
export function policyDecider(policy: PermissionPolicy): PolicyDecider {
  return {
    refusal: (tool) => policyRefusal(policy, tool),
    approval: (tool) => policyApproval(policy, tool),
    refusedOutput,
  };
}
