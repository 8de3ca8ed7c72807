/**
 * Loads the tool, hook and approval code ({@link ToolMachinery}) once, on first need, and calls hooks
 * without it when there are none to call.
 *
 * @module
 */

import { messageOf } from "../errors/message-of.ts";
import { HookError } from "../errors/sdk-error.ts";
import type { HookEvent, HookInputs, Hooks } from "./hooks.ts";
import type { HookOutcome, HookRunContext } from "./run-hooks.ts";

/** What tool-machinery.ts exports. */
export type ToolMachinery = typeof import("./tool-machinery.ts");

let loading: Promise<ToolMachinery> | undefined;

/**
 * The tool, hook and approval code. Loaded once; a failed load (a browser chunk that did not
 * download) is tried again on the next call.
 */
export function loadToolMachinery(): Promise<ToolMachinery> {
  loading ??= import("./tool-machinery.ts").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Starts loading the machinery when `config` will need it (it has tools or hooks); never rejects. */
export function preloadToolMachinery(config: { tools?: readonly unknown[]; hooks?: Hooks }): void {
  if ((config.tools?.length ?? 0) > 0 || Object.keys(config.hooks ?? {}).length > 0)
    loadToolMachinery().catch(() => {});
}

/** True when `hooks` has at least one hook for `event`. */
function hasHooks(hooks: Hooks | undefined, event: HookEvent): boolean {
  const list = hooks?.[event];
  return list !== undefined && (!Array.isArray(list) || list.length > 0);
}

/**
 * Runs every hook of `event` (see run-hooks.ts): at once, with nothing loaded, when there is none.
 * When their code cannot be loaded, the hooks cannot run and the outcome is a HookError
 * (`HOOK_FAILED`), whatever their failure policy: a run does not go on as if they had allowed it.
 */
export async function callHooks<E extends HookEvent>(
  event: E,
  input: Omit<HookInputs[E], "signal">,
  context: HookRunContext,
): Promise<HookOutcome> {
  if (!hasHooks(context.hooks, event)) return { kind: "go", context: [] };
  let machinery: ToolMachinery;
  try {
    machinery = await loadToolMachinery();
  } catch (cause) {
    const error = new HookError(
      `The ${event} hooks could not run: their code did not load (${messageOf(cause)})`,
      {
        code: "HOOK_FAILED",
        details: { event },
        cause,
      },
    );
    return { kind: "failed", error };
  }
  return machinery.runHooks(event, input, context);
}
