/**
 * The syntax of a permission policy's parts: its modes, tool-name patterns and permission class
 * names, and how many entries a list may hold. Plain constants, so the tool definitions and the
 * option checks that need them carry no shape checker.
 *
 * @module
 */

/** The modes of a permission policy, in the order the docs list them. */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypass"] as const;

/**
 * A tool-name pattern: the characters of a tool name (letters, digits, `_`, `-`) and `*`, which stands
 * for any run of characters (none included); 1 to 64 characters.
 */
export const TOOL_PATTERN = /^[a-zA-Z0-9_*-]{1,64}$/;

/** A permission class a tool declares (`permissionClass`): letters, digits, `_` and `-`, 1 to 64 characters. */
export const PERMISSION_CLASS = /^[a-zA-Z0-9_-]{1,64}$/;

/** At most this many patterns in each list and classes in `acceptClasses`, so a crafted state stays small. */
export const MAX_PERMISSION_ENTRIES = 1_000;
