/**
 * SessionState: everything needed to continue a conversation elsewhere, as plain JSON. Functions
 * (tools, hooks, fetch) and secrets (API keys) are never part of it: the caller passes them again when
 * restoring.
 *
 * @module
 */

import type { StoredApproval, ToolPermissions } from "../agent/approvals.ts";
import type { Budget } from "../agent/budget.ts";
import type { PermissionPolicy } from "../agent/permission-policy.ts";
import type { StoredQuestion } from "../agent/questions.ts";
import type { CompactionState } from "../compaction/compaction-state.ts";
import type {
  JsonObject,
  Message,
  ProviderId,
  ThinkingLevel,
  ToolResultPart,
  Usage,
  UserContentPart,
} from "../types.ts";

/** The version {@link SessionState} has today (2 added approvals; a version 1 state migrates). */
export const SESSION_STATE_VERSION = 2;

/** A prompt waiting for the run in flight to end. */
export interface QueuedPrompt {
  /** The id of the user message the prompt becomes. */
  id: string;
  /** The prompt: text and images. */
  content: UserContentPart[];
  /** When it was queued, in epoch milliseconds. */
  queuedAt: number;
}

/** Model parameters that shape every request of the session. */
export interface SessionParameters {
  /** The output limit per turn; a restore without the option keeps it. */
  maxTokens?: number;
  /** Sampling temperature; a restore without the option keeps it. */
  temperature?: number;
  /** Strings that end a response; a restore without the option keeps them. */
  stopSequences?: string[];
  /** Model turns per run; a restore without the option keeps it. */
  maxTurns?: number;
  /** The session's `sessionBudget`: a restore without the option keeps it (what was spent is `usage`). */
  sessionBudget?: Budget;
}

/** A session as plain JSON: `JSON.parse(JSON.stringify(state))` restores to the same session. */
export interface SessionState {
  /** The state's format version; an older state is migrated when restored. */
  version: typeof SESSION_STATE_VERSION;
  /** The session's id. */
  sessionId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** When a run of the session last ended (or the session was created), in epoch milliseconds. */
  updatedAt: number;
  /** The wire API of the session's model. */
  provider: ProviderId;
  /** The bare model id (`claude-sonnet-5-5`). */
  model: string;
  /** The system prompt; a restore without the option keeps it. */
  systemPrompt?: string;
  /** The thinking level; a restore without the option keeps it. */
  thinking?: ThinkingLevel;
  /** Model parameters and limits a restore keeps unless the options change them. */
  parameters: SessionParameters;
  /** The conversation, with thinking signatures and provider blocks verbatim. */
  messages: Message[];
  /** Summed over every run of the session, with cost in USD when known. */
  usage: Usage;
  /** Model turns over every run. */
  turns: number;
  /** Follow-up prompts not yet run. */
  queue: QueuedPrompt[];
  /** Whatever the caller attached; Wisp does not read it. */
  metadata: JsonObject;
  /**
   * Tool calls of the last assistant message that wait for a person, bound to this session by their
   * digest. Non-empty only while the session is paused (its last run ended with stopReason
   * `approval`); nothing in them runs until `session.resume` decides them.
   */
  pendingApprovals: StoredApproval[];
  /** While paused: the results the paused turn's other calls already have. */
  pendingResults: ToolResultPart[];
  /**
   * Calls of the ask tool (`askUserTool()`) in the last assistant message that wait for the person's
   * answers, bound to this session by their digest (and signed with an `approvalSecret`). Present only
   * while some wait (the last run ended with stopReason `question`, or `approval` with both kinds
   * waiting); `session.resume([{ toolCallId, answers }])` answers them.
   */
  pendingQuestions?: StoredQuestion[];
  /** Standing answers per tool name ("always allow" / "always deny"), from decisions with `always`. */
  toolPermissions: ToolPermissions;
  /**
   * After compaction: the summary that stands for the messages before `firstKeptId` in requests. The
   * messages themselves are all in `messages`.
   */
  compaction?: CompactionState;
  /**
   * With an `approvalSecret`: HMAC-SHA-256 (hex) of `toolPermissions` bound to this session, so a
   * client holding the state cannot add "always allow" and skip approvals.
   */
  toolPermissionsSignature?: string;
  /**
   * The session's permission policy (docs/permissions.md), every field filled in; absent when the
   * session has none. A restore without the `permissions` option keeps it.
   */
  permissions?: Required<PermissionPolicy>;
  /**
   * With an `approvalSecret`: HMAC-SHA-256 (hex) of `permissions` bound to this session, so a client
   * holding the state cannot loosen the policy (switch to `bypass`, add to `allow`).
   */
  permissionsSignature?: string;
  /**
   * The conversation's other branches, after forks (`chat(prompt, { parentId })`): each the id of the
   * message it continues from and its own messages, never a copy of what it shares. `messages` is the
   * active branch. Absent until the first fork.
   */
  branches?: StoredBranch[];
}

/** A branch of the conversation besides the active one (see `SessionState.branches`). */
export interface StoredBranch {
  /**
   * The id of the message this branch continues from: one of the active branch's or another branch's
   * messages, or `null` for a branch that starts the conversation anew.
   */
  parentId: string | null;
  /** The branch's own messages, after `parentId`: at least one. */
  messages: Message[];
}

/**
 * What {@link SessionState} holds, with only the conversation's messages from `messagesFrom` on: what
 * a store that keeps messages one by one writes after a turn (`AgentSession.exportTail`). Put back
 * together with {@link joinStateTail}.
 */
export interface SessionStateTail extends Omit<SessionState, "messages"> {
  /** The index in the exported conversation of `messages[0]` (at most `messageCount`). */
  messagesFrom: number;
  /** The exported conversation's messages from `messagesFrom` on. */
  messages: Message[];
  /** How many messages the whole exported conversation holds: `messagesFrom + messages.length`. */
  messageCount: number;
  /**
   * The id of the message just before `messagesFrom` (absent when it is 0): a store checks that the
   * message it holds at that index has this id before appending, and else saves the whole conversation.
   */
  previousId?: string;
}
