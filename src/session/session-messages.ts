/**
 * The messages of the send/receive API ({@link createSession}): what `send` takes and what `receive`
 * yields. Every message is plain JSON apart from a result's `error`, an SdkError (whose `toJSON()`
 * makes it JSON too).
 *
 * @module
 */

import type { PendingApproval } from "../agent/approvals.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import type {
  AssistantMessage,
  JsonObject,
  ProviderId,
  StopReason,
  ToolResultMessage,
  Usage,
  UserContentPart,
  UserMessage,
} from "../types.ts";

/** A user message as `send` takes it (the shape of the Claude Agent SDK's `SDKUserMessage`). */
export interface SendUserMessage {
  type: "user";
  message: string | UserContentPart[] | { role: "user"; content: string | UserContentPart[] };
  /** Becomes the user message's id. Default: a random UUID. */
  uuid?: string;
  /** Accepted for compatibility; the conversation's order decides the parent. */
  parentUuid?: string | null;
  /** When given, it must be this session's id. */
  sessionId?: string;
}

/** What `send` takes: text, content parts, or a user message. */
export type SendInput = string | UserContentPart[] | SendUserMessage;

/** First of all: which session, model and tools this is. */
export interface SystemInitMessage {
  type: "system";
  subtype: "init";
  uuid: string;
  sessionId: string;
  provider: ProviderId;
  model: string;
  /** The names of the tools the model may call. */
  tools: string[];
}

/** A whole assistant message, as it joined the conversation (never a delta). */
export interface AssistantSessionMessage {
  type: "assistant";
  /** The message's own id. */
  uuid: string;
  /** The id of the message before it in the conversation. */
  parentUuid: string | null;
  sessionId: string;
  message: AssistantMessage;
}

/**
 * A user-side message the run added to the conversation: tool results, a prompt steered in, or the
 * reason a `stop` hook gave for going on. (The prompts you `send` are not echoed back.)
 */
export interface UserSessionMessage {
  type: "user";
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  message: ToolResultMessage | UserMessage;
}

/**
 * How one sent prompt ended. `subtype` is `success` when the run ended as someone decided (complete,
 * a hook's stop, a refusal, max tokens) and `error` otherwise (abort, budget, max turns, a provider
 * error, SESSION_CLOSED) — then `error` says which.
 */
export interface ResultMessage {
  type: "result";
  subtype: "success" | "error";
  isError: boolean;
  uuid: string;
  sessionId: string;
  /** The id of the prompt (the user message) this result answers. */
  promptUuid: string;
  /** The text of the run's last assistant message. */
  text: string;
  /** With `output: schema`: the answer, parsed and validated by the schema. */
  output?: unknown;
  stopReason: StopReason;
  stopDetail?: string;
  /** This request's usage, summed over its turns. */
  usage: Usage;
  /** USD, when the model's price is known. */
  costUsd?: number;
  turns: number;
  durationMs: number;
  error?: AnySdkError;
  /** With stopReason `approval`: the calls that wait; decide them with `session.resume`. */
  pendingApprovals?: PendingApproval[];
}

/** What `receive` yields. */
export type SessionMessage = SystemInitMessage | AssistantSessionMessage | UserSessionMessage | ResultMessage;

/**
 * A permission decision: allow (optionally with changed input), deny (optionally ending the run), or
 * ask a person later: the run pauses with stopReason `approval` and `session.resume` decides.
 */
export type PermissionResult =
  | { behavior: "allow"; updatedInput?: JsonObject }
  | { behavior: "deny"; message: string; interrupt?: boolean }
  | { behavior: "ask"; message?: string };

/**
 * Decides whether a tool call may run. Without one, the send/receive API runs every call the model
 * asks for. A throw, or no answer within `canUseToolTimeoutMs` (default 300 s), denies the call.
 */
export type CanUseTool = (
  toolName: string,
  input: JsonObject,
  context: { signal: AbortSignal; toolCallId: string; sessionId: string },
) => PermissionResult | Promise<PermissionResult>;
