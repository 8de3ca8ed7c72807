/**
 * What an MCP tool's annotations mean to a permission policy (docs/permissions.md):
 * - `readOnlyHint: true` — the tool does not change its environment: `sideEffects: false`, so `plan`
 *   mode runs it.
 * - `destructiveHint: false` and `openWorldHint: false` (on a tool that is not read-only) — its changes
 *   are additive and stay in the server's own world: `permissionClass: "edit"`, so `acceptEdits` runs it
 *   without asking. A destructive tool (`destructiveHint` true or absent, the protocol's default), or
 *   one that reaches the open world (sends a mail, posts, pays: `openWorldHint` true or absent, the
 *   protocol's default), gets no class and still asks.
 *
 * Annotations are the server's own hints: the protocol says not to trust them from a server you do not
 * trust. Connect only servers you trust, or give their tools a stricter policy (a `deny` pattern).
 *
 * @module
 */

import type { Tool } from "../agent/define-tool.ts";
import type { JsonObject } from "../types.ts";

/** The `sideEffects` and `permissionClass` an MCP tool gets from its `annotations` (only those that apply). */
export function annotationPermissions(
  annotations: JsonObject | undefined,
): Pick<Tool<unknown>, "sideEffects" | "permissionClass"> {
  if (annotations?.readOnlyHint === true) return { sideEffects: false };
  if (annotations?.destructiveHint === false && annotations.openWorldHint === false)
    return { permissionClass: "edit" };
  return {};
}
