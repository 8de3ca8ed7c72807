/**
 * Hook types: the lifecycle events of a run, what each hook receives, and the decisions it may return.
 * A hook is a function, or an entry with a name, a timeout and a failure policy; an event takes one
 * hook or a list, run in order. Also how an event's hooks are listed and named, for run-hooks.ts and
 * for the error when their code could not be loaded (load-tool-machinery.ts).
 *
 * @module
 */

import type { CompactionReason } from "../compaction/compaction-state.ts";
import type {
  AssistantMessage,
  JsonObject,
  Message,
  StopReason,
  ToolResultPart,
  UserMessage,
} from "../types.ts";
import type { AnyTool, TypedToolCall } from "./typed-tool-call.ts";

/** The events hooks attach to. */
export type HookEvent =
  | "sessionStart"
  | "userPromptSubmit"
  | "preToolUse"
  | "postToolUse"
  | "postToolUseFailure"
  | "stop"
  | "preCompact"
  | "sessionEnd";

/** What every hook receives. */
export interface HookInputBase {
  sessionId: string;
  /** Aborts when the run is aborted or the hook's timeout expires. */
  signal: AbortSignal;
  /** The conversation so far. Read it; do not change it. */
  messages: readonly Message[];
  /** Model turns completed so far in this run. */
  turn: number;
}

/**
 * The input of each event. `T`, the union of the run's tools, types `toolCall`: after
 * `if (toolCall.name === "calculator")`, `toolCall.args` is the calculator's input.
 */
export interface HookInputs<T extends AnyTool = AnyTool> {
  sessionStart: HookInputBase;
  userPromptSubmit: HookInputBase & { prompt: UserMessage };
  preToolUse: HookInputBase & { toolCall: TypedToolCall<T> };
  postToolUse: HookInputBase & { toolCall: TypedToolCall<T>; result: ToolResultPart };
  postToolUseFailure: HookInputBase & {
    toolCall: TypedToolCall<T>;
    result: ToolResultPart;
    error: { code: string; message: string };
  };
  stop: HookInputBase & { message: AssistantMessage; stopReason: StopReason };
  /**
   * Before older messages are summarized: `older` are the ones the summary replaces in requests (they
   * stay in the session), `tokens` the estimated size of the request that set it off.
   */
  preCompact: HookInputBase & { older: readonly Message[]; reason: CompactionReason; tokens: number };
  sessionEnd: HookInputBase & { stopReason: StopReason };
}

/** Ends the run with stopReason `hookStop`. */
export interface StopRunDecision {
  decision: "stop";
  reason?: string;
}

/** Decisions of `sessionStart` and `userPromptSubmit`: add text to the prompt, or stop. */
export type PromptDecision = { context?: string } | StopRunDecision;

/**
 * Decisions of `preToolUse`: allow (optionally with changed input), deny (the model gets `reason` as
 * the tool's error result), ask a person (the run pauses with stopReason `approval` until
 * `session.resume` decides; a later hook's deny still wins), or stop the run. `context` is appended
 * to the tool's result.
 */
export type PreToolUseDecision =
  | { decision?: "allow"; input?: JsonObject; context?: string }
  | { decision: "deny"; reason: string }
  | { decision: "ask"; reason?: string }
  | StopRunDecision;

/**
 * Decisions of `postToolUse`: replace the output (the whole answer: images the tool returned are
 * dropped with its text), append context, or stop the run.
 */
export type PostToolUseDecision = { output?: string; context?: string } | StopRunDecision;

/** Decisions of `postToolUseFailure`: append context to the error result, or stop the run. */
export type PostToolUseFailureDecision = { context?: string } | StopRunDecision;

/** Decisions of `stop`: let the run end, or block the stop — the loop goes on with `reason` as a user message. */
export type StopHookDecision = { decision: "block"; reason: string } | { decision?: "allow" };

/**
 * Decisions of `preCompact`: `skip` it (the request goes as it is), or give the `summary` yourself
 * (no model call is made for it).
 */
export type PreCompactDecision = { decision: "skip"; reason?: string } | { summary?: string };

/** What each event's hook may return (nothing means "go on"). */
export interface HookDecisions {
  sessionStart: PromptDecision;
  userPromptSubmit: PromptDecision;
  preToolUse: PreToolUseDecision;
  postToolUse: PostToolUseDecision;
  postToolUseFailure: PostToolUseFailureDecision;
  stop: StopHookDecision;
  preCompact: PreCompactDecision;
  sessionEnd: undefined;
}

/** A hook function for event `E` of a run with the tools `T`. */
export type HookHandler<E extends HookEvent, T extends AnyTool = AnyTool> = (
  input: HookInputs<T>[E],
  // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be an async function that returns nothing
) => HookDecisions[E] | undefined | void | Promise<HookDecisions[E] | undefined | void>;

/**
 * What happens when a hook throws, times out or returns something that is not a decision:
 * `open` goes on as if it returned nothing; `closed` denies the tool (preToolUse) or ends the run with
 * the HookError (every other event).
 */
export type HookFailurePolicy = "open" | "closed";

/** A hook with its options. */
export interface HookEntry<E extends HookEvent, T extends AnyTool = AnyTool> {
  /** Shown in events and errors; defaults to the function's name, or `<event>#<position>`. */
  name?: string;
  handler: HookHandler<E, T>;
  /** Default: {@link DEFAULT_HOOK_TIMEOUTS}. */
  timeoutMs?: number;
  /** Default: {@link DEFAULT_HOOK_FAILURE_POLICY}. */
  onFailure?: HookFailurePolicy;
}

/** One hook or a list of hooks, bare functions or entries. */
export type HookList<E extends HookEvent, T extends AnyTool = AnyTool> =
  | HookHandler<E, T>
  | HookEntry<E, T>
  | Array<HookHandler<E, T> | HookEntry<E, T>>;

/** The hooks of a run, by event; `T`, the union of the run's tools, types their tool calls. */
export type Hooks<T extends AnyTool = AnyTool> = { [E in HookEvent]?: HookList<E, T> };

/** Milliseconds a hook may take, per event, before its failure policy applies. */
export const DEFAULT_HOOK_TIMEOUTS: Readonly<Record<HookEvent, number>> = {
  sessionStart: 10_000,
  userPromptSubmit: 10_000,
  preToolUse: 30_000,
  postToolUse: 10_000,
  postToolUseFailure: 10_000,
  stop: 30_000,
  preCompact: 60_000,
  sessionEnd: 5_000,
};

/** Fail closed where a failing hook could let through what it was meant to stop; open elsewhere. */
export const DEFAULT_HOOK_FAILURE_POLICY: Readonly<Record<HookEvent, HookFailurePolicy>> = {
  sessionStart: "open",
  userPromptSubmit: "open",
  preToolUse: "closed",
  postToolUse: "open",
  postToolUseFailure: "open",
  stop: "open",
  preCompact: "open",
  sessionEnd: "open",
};

/** The hooks of `event` as entries (a bare function becomes `{ handler }`), in order. */
export function hookEntries<E extends HookEvent>(hooks: Hooks | undefined, event: E): HookEntry<E>[] {
  const list = hooks?.[event] as HookList<E> | undefined;
  if (list === undefined) return [];
  const items = Array.isArray(list) ? list : [list];
  return items.map((item: HookHandler<E> | HookEntry<E>) =>
    typeof item === "function" ? { handler: item } : item,
  );
}

/**
 * A hook's name in events and errors: its `name`, its function's own name, or `event#position` (1-based).
 * A name JavaScript gave an anonymous function from where it was written — `handler` in `{ handler: () =>
 * … }`, the event in `{ preToolUse: () => … }` — names no hook, so it is not used; `bind`'s "bound "
 * prefix is dropped.
 */
export function hookName<E extends HookEvent>(entry: HookEntry<E>, event: E, position: number): string {
  if (entry.name !== undefined) return entry.name;
  const own = entry.handler.name.replace(/^(?:bound )+/, "");
  return own === "" || own === "handler" || own === event ? `${event}#${position + 1}` : own;
}
