/**
 * The stored form of a permission policy (`SessionState.permissions`), as a restore checks it: the
 * same syntax (permission-syntax.ts) the agent's option check applies.
 *
 * @module
 */

import {
  MAX_PERMISSION_ENTRIES,
  PERMISSION_CLASS,
  PERMISSION_MODES,
  TOOL_PATTERN,
} from "./permission-syntax.ts";
import { array, type Check, object, oneOf, optional, refine, string } from "./shape-check.ts";

const pattern = refine(string(), (value) => TOOL_PATTERN.test(value), "a tool name or a pattern with *");
const permissionClass = refine(string(), (value) => PERMISSION_CLASS.test(value), "a permission class name");

/** The shape of a stored permission policy (unknown keys are dropped, as everywhere in a state). */
export const checkPermissionPolicyShape: Check<object> = object({
  mode: optional(oneOf(PERMISSION_MODES)),
  allow: optional(array(pattern, MAX_PERMISSION_ENTRIES)),
  deny: optional(array(pattern, MAX_PERMISSION_ENTRIES)),
  acceptClasses: optional(array(permissionClass, MAX_PERMISSION_ENTRIES)),
});
