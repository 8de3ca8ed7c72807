/**
 * Hook types: the lifecycle events of a run, what each hook receives, and the decisions it may return.
 * A hook is a function, or an entry with a name, a timeout and a failure policy; an event takes one
 * hook or a list, run in order. Also how an event's hooks are listed and named, for run-hooks.ts.
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
  /** The session's id (for `runAgent`, its `sessionId` option or a fresh random UUID). */
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
  /** Before the first prompt of a session (for `runAgent`, before its prompt). */
  sessionStart: HookInputBase;
  /** Before a prompt joins the conversation. */
  userPromptSubmit: HookInputBase & {
    /** The prompt about to be sent; text a hook returns as `context` is appended to it. */
    prompt: UserMessage;
  };
  /** Before a tool runs: the hook may allow it (with changed input), deny it, ask a person, or stop the run. */
  preToolUse: HookInputBase & {
    /** The call about to run, with the input an earlier hook may have changed. */
    toolCall: TypedToolCall<T>;
  };
  /** After a tool succeeded, before the model sees its result. */
  postToolUse: HookInputBase & {
    /** The call as it ran. */
    toolCall: TypedToolCall<T>;
    /** The result the model will get, unless a hook replaces its output. */
    result: ToolResultPart;
  };
  /**
   * After a tool failed (threw, timed out, returned an error, or its input was invalid), before the model
   * sees the error.
   */
  postToolUseFailure: HookInputBase & {
    /** The call that failed. */
    toolCall: TypedToolCall<T>;
    /** The error result the model will get (`isError: true`). */
    result: ToolResultPart;
    /** What went wrong. */
    error: {
      /** The ToolError's code (`TOOL_FAILED`, `TOOL_TIMEOUT`, `TOOL_INPUT_INVALID`, …). */
      code: string;
      /** The error's message. */
      message: string;
    };
  };
  /** When the run would end after a model turn; a hook may block that and keep the loop going. */
  stop: HookInputBase & {
    /** The assistant message the run would end on. */
    message: AssistantMessage;
    /** Why the run would end (`complete`, `maxTokens`, `refusal`, …). */
    stopReason: StopReason;
  };
  /**
   * Before older messages are summarized: `older` are the ones the summary replaces in requests (they
   * stay in the session), `tokens` the estimated size of the request that set it off.
   */
  preCompact: HookInputBase & {
    /** The messages the summary would replace in requests. */
    older: readonly Message[];
    /** What set the compaction off. */
    reason: CompactionReason;
    /** The estimated size of the request that set it off, in tokens. */
    tokens: number;
  };
  /** After a session's run ended (for `runAgent`, after its run), even an aborted one; nothing can be changed. */
  sessionEnd: HookInputBase & {
    /** How the run ended. */
    stopReason: StopReason;
  };
}

/** Ends the run with stopReason `hookStop`. */
export interface StopRunDecision {
  /** Ends the run now. */
  decision: "stop";
  /** Why; it becomes the result's `stopDetail`. */
  reason?: string;
}

/** Decisions of `sessionStart` and `userPromptSubmit`: add text to the prompt, or stop. */
export type PromptDecision =
  | {
      /**
       * Text to add to the user's message as its own text part: before the prompt (`sessionStart`), after
       * it (`userPromptSubmit`).
       */
      context?: string;
    }
  | StopRunDecision;

/**
 * Decisions of `preToolUse`: allow (optionally with changed input), deny (the model gets `reason` as
 * the tool's error result), ask a person (the run pauses with stopReason `approval` until
 * `session.resume` decides; a later hook's deny still wins), or stop the run. `context` is appended
 * to the tool's result.
 */
export type PreToolUseDecision =
  | {
      /** Run the tool (the same as returning nothing). */
      decision?: "allow";
      /** Arguments to run it with instead of the model's; later hooks and the tool see these. */
      input?: JsonObject;
      /** Text appended to the tool's result, after a blank line. */
      context?: string;
    }
  | {
      /** Do not run the tool; the model gets `reason` as the tool's error result. Later hooks do not run. */
      decision: "deny";
      /** What the model is told. */
      reason: string;
    }
  | {
      /** Let a person decide: the run pauses with stopReason `approval` (a later hook's deny still wins). */
      decision: "ask";
      /** Shown with the pending approval (`PendingApproval.reason`). */
      reason?: string;
    }
  | StopRunDecision;

/**
 * Decisions of `postToolUse`: replace the output (the whole answer: images the tool returned are
 * dropped with its text), append context, or stop the run.
 */
export type PostToolUseDecision =
  | {
      /** The output the model gets instead of the tool's (its images are dropped too). */
      output?: string;
      /** Text appended to the output, after a blank line. */
      context?: string;
    }
  | StopRunDecision;

/** Decisions of `postToolUseFailure`: append context to the error result, or stop the run. */
export type PostToolUseFailureDecision =
  | {
      /** Text appended to the error result the model gets, after a blank line. */
      context?: string;
    }
  | StopRunDecision;

/** Decisions of `stop`: let the run end, or block the stop — the loop goes on with `reason` as a user message. */
export type StopHookDecision =
  | {
      /** Keep the run going (at most `maxStopBlocks` times per run). */
      decision: "block";
      /** Sent to the model as a user message: what it should do next. */
      reason: string;
    }
  | {
      /** Let the run end (the same as returning nothing). */
      decision?: "allow";
    };

/**
 * Decisions of `preCompact`: `skip` it (the request goes as it is), or give the `summary` yourself
 * (no model call is made for it).
 */
export type PreCompactDecision =
  | {
      /** Do not compact: the request goes as it is. */
      decision: "skip";
      /** Why, for the `hook-decision` event. */
      reason?: string;
    }
  | {
      /** The summary to use, instead of asking the model for one; the model's when absent. */
      summary?: string;
    };

/** What each event's hook may return (nothing means "go on"). */
export interface HookDecisions {
  /** `sessionStart`: add context before the first prompt, or stop. */
  sessionStart: PromptDecision;
  /** `userPromptSubmit`: add context to the prompt, or stop. */
  userPromptSubmit: PromptDecision;
  /** `preToolUse`: allow (with changed input), deny, ask a person, or stop. */
  preToolUse: PreToolUseDecision;
  /** `postToolUse`: replace the output, add context, or stop. */
  postToolUse: PostToolUseDecision;
  /** `postToolUseFailure`: add context to the error result, or stop. */
  postToolUseFailure: PostToolUseFailureDecision;
  /** `stop`: let the run end, or block it. */
  stop: StopHookDecision;
  /** `preCompact`: skip the compaction, or give the summary. */
  preCompact: PreCompactDecision;
  /** `sessionEnd`: nothing; the run is over. */
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
  /** The hook function: it gets the event's input and may return a decision (or a promise of one). */
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
