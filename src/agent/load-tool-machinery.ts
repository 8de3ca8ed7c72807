/**
 * Loads the tool, hook and approval code ({@link ToolMachinery}) once, on first need, and calls hooks
 * without it when there are none to call.
 *
 * @module
 */

import { messageOf } from "../errors/message-of.ts";
import { HookError } from "../errors/sdk-error.ts";
import {
  DEFAULT_HOOK_FAILURE_POLICY,
  type HookEvent,
  type HookInputs,
  type Hooks,
  hookEntries,
  hookName,
} from "./hooks.ts";
import type { HookOutcome, HookRunContext } from "./run-hooks.ts";

/** What tool-machinery.ts exports. */
export type ToolMachinery = typeof import("./tool-machinery.ts");

let loading: Promise<ToolMachinery> | undefined;
/** The machinery once loaded: later runs use it without waiting on a promise or the signal. */
let loaded: ToolMachinery | undefined;

/**
 * The tool, hook and approval code. Loaded once; after a failed load (a browser chunk that did not
 * download) the next call asks for it again.
 */
export function loadToolMachinery(): Promise<ToolMachinery> {
  loading ??= import("./tool-machinery.ts").then(
    (machinery) => {
      loaded = machinery;
      return machinery;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The machinery, or undefined once `signal` aborts (a stalled download does not hold up an abort);
 * rejects when the load fails.
 */
export async function machineryUnlessAborted(signal: AbortSignal): Promise<ToolMachinery | undefined> {
  if (signal.aborted) return undefined;
  if (loaded !== undefined) return loaded;
  let onAbort = (): void => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([loadToolMachinery(), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Starts loading the machinery when `config` will need it (it has tools or hooks); never rejects. */
export function preloadToolMachinery(config: { tools?: readonly unknown[]; hooks?: Hooks }): void {
  if ((config.tools?.length ?? 0) > 0 || Object.keys(config.hooks ?? {}).length > 0)
    loadToolMachinery().catch(() => {});
}

/**
 * The outcome when the hooks of `event` could not run because their code did not load: each fails as
 * a hook that threw does (a `hook-error` event under its failure policy), so the run ends only where a
 * hook's policy is closed.
 */
function notLoaded<E extends HookEvent>(event: E, context: HookRunContext, cause: unknown): HookOutcome {
  for (const [position, entry] of hookEntries(context.hooks, event).entries()) {
    const hook = hookName(entry, event, position);
    const error = new HookError(
      `Hook "${hook}" (${event}) could not run: its code did not load (${messageOf(cause)})`,
      {
        code: "HOOK_FAILED",
        details: { hook, event },
        cause,
      },
    );
    const policy = entry.onFailure ?? DEFAULT_HOOK_FAILURE_POLICY[event];
    context.emit({ type: "hook-error", event, hook, error, policy });
    if (policy === "closed") return { kind: "failed", error };
  }
  return { kind: "go", context: [] };
}

/**
 * Runs every hook of `event` (see run-hooks.ts): at once, with nothing loaded, when there is none.
 * When their code cannot be loaded, each hook fails under its failure policy (see {@link notLoaded}).
 */
export async function callHooks<E extends HookEvent>(
  event: E,
  input: Omit<HookInputs[E], "signal">,
  context: HookRunContext,
): Promise<HookOutcome> {
  const list = context.hooks?.[event];
  if (list === undefined || (Array.isArray(list) && list.length === 0)) return { kind: "go", context: [] };
  let machinery: ToolMachinery | undefined;
  try {
    machinery = await machineryUnlessAborted(context.signal);
  } catch (cause) {
    return notLoaded(event, context, cause);
  }
  if (machinery === undefined) return { kind: "aborted" };
  return machinery.runHooks(event, input, context);
}
