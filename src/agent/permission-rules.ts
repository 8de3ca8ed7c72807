/**
 * The checks and decisions of a permission policy (see permission-policy.ts for the order of who
 * decides): the strict check of a policy given as an option, the policy filled in with its defaults,
 * The decisions are in permission-decisions.ts.
 *
 * @module
 */

import { invalidOption, isPlainObject, oneOfOption } from "../config/option-checks.ts";
import { checkOptions, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import {
  MAX_PERMISSION_ENTRIES,
  PERMISSION_CLASS,
  PERMISSION_MODES,
  TOOL_PATTERN,
} from "../state/permission-syntax.ts";
import type { PermissionMode, PermissionPolicy } from "./permission-policy.ts";

/**
 * A list of patterns (or of class names, with `syntax` {@link PERMISSION_CLASS}), checked strictly.
 * Only a list that is there: `checkOptions` skips an absent field.
 */
function listProblem(value: unknown, path: string, syntax: RegExp, what: string): ConfigError | undefined {
  if (!Array.isArray(value))
    return invalidOption(`${path} must be an array of ${what}s, got ${showValue(value)}`, path);
  if (value.length > MAX_PERMISSION_ENTRIES)
    return invalidOption(`${path} may hold at most ${MAX_PERMISSION_ENTRIES} entries`, path);
  for (const [index, item] of value.entries()) {
    if (typeof item === "string" && syntax.test(item)) continue;
    return invalidOption(
      `${path}.${index} must be a ${what} (${syntax.source}), got ${showValue(item)}`,
      `${path}.${index}`,
    );
  }
  return undefined;
}

/** The fields of a policy, in the order they are checked. */
const POLICY_FIELDS: OptionTable<PermissionPolicy> = {
  mode: oneOfOption(PERMISSION_MODES satisfies readonly PermissionMode[]),
  allow: (value, path) => listProblem(value, path, TOOL_PATTERN, "tool name or pattern"),
  deny: (value, path) => listProblem(value, path, TOOL_PATTERN, "tool name or pattern"),
  acceptClasses: (value, path) => listProblem(value, path, PERMISSION_CLASS, "permission class"),
};

/**
 * The first problem with a policy given as an option (or to `setPermissions`), as a ConfigError whose
 * `path` names it (`permissions.allow.2`); undefined when it is a valid policy.
 */
export function permissionPolicyProblem(value: unknown, path = "permissions"): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return invalidOption(
      `${path} must be a policy object ({ mode, allow, deny, acceptClasses }), got ${showValue(value)}`,
      path,
    );
  return checkOptions(POLICY_FIELDS, value, { what: "permissions field", path });
}
