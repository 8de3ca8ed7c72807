/**
 * Who made a hook's decision, for the `hook-decision` event. A hook function is a rule that decides by
 * itself; the hooks that stand for someone else (the bridge's, which ask a person on the main thread)
 * mark the decision they return with {@link markDecidedBy}, and `runHooks` reads the mark with
 * {@link decidedByOf}. The mark lives beside the decision (a WeakMap), never in it: the decision stays
 * exactly what the hook returned, and an unmarked one was made by the hook.
 *
 * @module
 */

/**
 * Who decided:
 * - `hook`: a hook function — a rule in code;
 * - `policy`: the session's permission policy;
 * - `person`: a person, through a hook that asked them (the bridge's main-thread answer);
 * - `timeout`: nobody in time — the kind's default was applied after its time limit;
 * - `default`: nobody — the kind's default was applied because the answer failed (the handler threw or
 *   answered in the wrong shape) or the bridge closed.
 */
export type DecidedBy = "hook" | "policy" | "person" | "timeout" | "default";

const marks = new WeakMap<object, DecidedBy>();

/** Marks `decision` as decided by `by`, and returns it (nothing, or a value that is not an object, as it is). */
export function markDecidedBy<D>(decision: D, by: DecidedBy): D {
  if (typeof decision === "object" && decision !== null) marks.set(decision, by);
  return decision;
}

/** Who decided `decision`: its mark, else `hook`. */
export function decidedByOf(decision: unknown): DecidedBy {
  return (typeof decision === "object" && decision !== null ? marks.get(decision) : undefined) ?? "hook";
}
