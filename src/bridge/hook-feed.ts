/**
 * The hook feed: an observe-only view, on the main thread, of every hook event of the session in the
 * worker — and of what the run tells a person (a call waits for approval, the model asks questions)
 * and of who decided each hook decision. Each item carries the same hints as a decision request, with
 * `expectsDecision` and `canBlock` false: nothing the main side does with it reaches the worker.
 *
 * @module
 */

import type { PendingApproval } from "../agent/approvals.ts";
import type { DecidedBy } from "../agent/decided-by.ts";
import type { HookEvent } from "../agent/hooks.ts";
import type { PermissionVerdict } from "../agent/permission-policy.ts";
import type { PendingQuestion } from "../agent/questions.ts";
import type { CompactionReason } from "../compaction/compaction-state.ts";
import type {
  AssistantMessage,
  JsonObject,
  StopReason,
  ToolCallPart,
  ToolResultPart,
  UserMessage,
} from "../types.ts";
import type { DecisionHints } from "./decisions.ts";

/**
 * The kinds of feed item: one per hook event of the SDK (named as decision kinds are), and three that
 * are not hook events: `notification` (the run waits for a person), `hook-decision` (a hook decided, and
 * who) and `permission-decision` (the permission policy decided a call).
 */
export type HookFeedKind =
  | "session-start"
  | "prompt-submit"
  | "tool-before"
  | "tool-after"
  | "tool-failure"
  | "stop"
  | "compact-before"
  | "session-end"
  | "notification"
  | "hook-decision"
  | "permission-decision";

/** Every kind a worker of this version sends: the hook events in the order a run meets them, then the others. */
export const HOOK_FEED_KINDS: readonly HookFeedKind[] = [
  "session-start",
  "prompt-submit",
  "tool-before",
  "tool-after",
  "tool-failure",
  "compact-before",
  "stop",
  "session-end",
  "notification",
  "hook-decision",
  "permission-decision",
];

/** The hints of a feed item: a decision request's, saying that nothing is asked and nothing waits. */
export interface HookFeedHints extends Omit<DecisionHints, "expectsDecision" | "canBlock" | "timeoutMs"> {
  /** Always false: the feed asks nothing. */
  expectsDecision: false;
  /** Always false: the run does not wait for a listener. */
  canBlock: false;
  /** Always 0: nothing waits. */
  timeoutMs: 0;
}

/** One item of the feed, by kind, with what the hook in the worker sees (never the whole conversation). */
export type HookFeedEvent =
  | (HookFeedHints & {
      /** A session's first run begins (`sessionStart`). */
      kind: "session-start";
    })
  | (HookFeedHints & {
      /** A prompt is about to join the conversation (`userPromptSubmit`). */
      kind: "prompt-submit";
      /** The prompt. */
      prompt: UserMessage;
    })
  | (HookFeedHints & {
      /** A tool is about to run (`preToolUse`): before any hook decides. */
      kind: "tool-before";
      /** The call, with the model's arguments. */
      toolCall: ToolCallPart;
    })
  | (HookFeedHints & {
      /** A tool ran (`postToolUse`). */
      kind: "tool-after";
      /** The call as it ran. */
      toolCall: ToolCallPart;
      /** The result the model will get, unless a hook replaces its output. */
      result: ToolResultPart;
    })
  | (HookFeedHints & {
      /** A tool failed: it threw, timed out, returned an error, or its input was invalid (`postToolUseFailure`). */
      kind: "tool-failure";
      /** The call that failed. */
      toolCall: ToolCallPart;
      /** The error result the model will get. */
      result: ToolResultPart;
      /** What went wrong: the ToolError's code and message. */
      error: {
        /** `TOOL_FAILED`, `TOOL_TIMEOUT`, `TOOL_INPUT_INVALID`, … */
        code: string;
        /** The error's message. */
        message: string;
      };
    })
  | (HookFeedHints & {
      /** The run would end after a model turn (`stop`). */
      kind: "stop";
      /** The assistant message the run would end on. */
      message: AssistantMessage;
      /** Why the run would end. */
      stopReason: StopReason;
    })
  | (HookFeedHints & {
      /** Older messages are about to be summarized (`preCompact`). */
      kind: "compact-before";
      /** What set the compaction off. */
      reason: CompactionReason;
      /** The estimated size of the request that set it off, in tokens. */
      tokens: number;
      /** How many messages the summary would replace in requests (the messages themselves stay in the worker). */
      olderCount: number;
    })
  | (HookFeedHints & {
      /** A run of the session ended, or the session closed (`sessionEnd`). */
      kind: "session-end";
      /** How it ended. */
      stopReason: StopReason;
    })
  | (HookFeedHints & {
      /**
       * The run waits for a person: a call for approval (its `approval-requested` event), or the ask tool
       * for answers (`question-requested`). The run pauses; whoever holds the session decides with
       * `resume`.
       */
      kind: "notification";
      /** What waits. */
      waitsFor: "approval" | "question";
      /** In words, for a toast or a system notification. */
      message: string;
      /** With `waitsFor: "approval"`: the call and why it waits. */
      approval?: PendingApproval;
      /** With `waitsFor: "question"`: the ask tool's call and its questions. */
      question?: PendingQuestion;
    })
  | (HookFeedHints & {
      /** A hook returned a decision (the run's `hook-decision` event), in any connection's run. */
      kind: "hook-decision";
      /** The hook event it decided. */
      event: HookEvent;
      /** The hook's name (`bridge` and `bridge-approval` are the main thread's answers). */
      hook: string;
      /** The decision. */
      decision: JsonObject;
      /** Who decided: `hook`, `policy`, `person`, `timeout` or `default` (see `DecidedBy`). */
      decidedBy: DecidedBy;
    })
  | (HookFeedHints & {
      /** The permission policy decided a tool call (the run's `permission-decision` event). */
      kind: "permission-decision";
      /** The call decided. */
      toolCall: ToolCallPart;
      /** What the policy decided, which part of it, and the pattern or class that matched. */
      verdict: PermissionVerdict;
      /** Always `policy`. */
      decidedBy: "policy";
    })
  | (HookFeedHints & {
      /** A kind this side does not know (a newer worker's); `rawKind` names it. */
      kind: "unknown";
      /** The item's data, as the worker sent it. */
      payload: unknown;
    });

/**
 * Told each feed item. What it returns is ignored; a throw or a rejected promise is reported
 * (`HOOK_LISTENER_FAILED`) and changes nothing else: the run, the connection and the other listeners go on.
 */
export type HookFeedListener = (event: HookFeedEvent) => unknown;
