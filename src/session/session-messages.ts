/**
 * The messages of the send/receive API ({@link createSession}): what `send` takes and what `receive`
 * yields. Every message is plain JSON apart from a result's `error`, an SdkError (whose `toJSON()`
 * makes it JSON too).
 *
 * @module
 */

import type { PendingApproval } from "../agent/approvals.ts";
import type { PendingQuestion } from "../agent/questions.ts";
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
  /** Identifies a user message. */
  type: "user";
  /** The prompt: text, content parts, or an Anthropic-style `{ role: "user", content }` message. */
  message:
    | string
    | UserContentPart[]
    | {
        /** Always `"user"`. */
        role: "user";
        /** The prompt: text, or content parts. */
        content: string | UserContentPart[];
      };
  /** Becomes the user message's id. Default: a random UUID. */
  uuid?: string;
  /**
   * The message this prompt continues from. Absent, or the conversation's last message: it continues
   * the conversation. Another message of the active branch (or `null`, the start): the conversation
   * forks there, what came after is kept as a branch (see `ChatOptions.parentId`, docs/forks.md).
   */
  parentUuid?: string | null;
  /** When given, it must be this session's id. */
  sessionId?: string;
}

/** What `send` takes: text, content parts, or a user message. */
export type SendInput = string | UserContentPart[] | SendUserMessage;

/** First of all: which session, model and tools this is. */
export interface SystemInitMessage {
  /** Identifies a system message. */
  type: "system";
  /** Identifies the init message, the first `receive` yields. */
  subtype: "init";
  /** This message's own id (a random UUID). */
  uuid: string;
  /** The session's id. */
  sessionId: string;
  /** The wire API the session's model speaks. */
  provider: ProviderId;
  /** The model id, without the provider prefix. */
  model: string;
  /** The names of the tools the model may call. */
  tools: string[];
}

/** A whole assistant message, as it joined the conversation (never a delta). */
export interface AssistantSessionMessage {
  /** Identifies an assistant message. */
  type: "assistant";
  /** The message's own id. */
  uuid: string;
  /** The id of the message before it in the conversation. */
  parentUuid: string | null;
  /** The session's id. */
  sessionId: string;
  /** The message itself, as it stands in the conversation. */
  message: AssistantMessage;
}

/**
 * A user-side message the run added to the conversation: tool results, a prompt steered in, or the
 * reason a `stop` hook gave for going on. (The prompts you `send` are not echoed back.)
 */
export interface UserSessionMessage {
  /** Identifies a user-side message. */
  type: "user";
  /** The message's own id. */
  uuid: string;
  /** The id of the message before it in the conversation. */
  parentUuid: string | null;
  /** The session's id. */
  sessionId: string;
  /** The message itself: tool results, or a user message the run added. */
  message: ToolResultMessage | UserMessage;
}

/**
 * How one sent prompt ended. `subtype` is `success` when the run ended as someone decided (complete,
 * a hook's stop, a refusal, max tokens) and `error` otherwise (abort, budget, max turns, a provider
 * error, SESSION_CLOSED) — then `error` says which.
 */
export interface ResultMessage {
  /** Identifies a result message, the last one `receive` yields for a prompt. */
  type: "result";
  /**
   * `success` when the run ended as someone decided, `error` when it failed or was cut short (see `error`).
   */
  subtype: "success" | "error";
  /** True exactly when `subtype` is `error`. */
  isError: boolean;
  /** This message's own id (a random UUID). */
  uuid: string;
  /** The session's id. */
  sessionId: string;
  /** The id of the prompt (the user message) this result answers. */
  promptUuid: string;
  /** The text of the run's last assistant message. */
  text: string;
  /** With `output: schema`: the answer, parsed and validated by the schema. */
  output?: unknown;
  /** Why the run ended. */
  stopReason: StopReason;
  /** Why a hook stopped the run, or which budget ended it. */
  stopDetail?: string;
  /** This request's usage, summed over its turns. */
  usage: Usage;
  /** USD, when the model's price is known. */
  costUsd?: number;
  /** Model turns made for this prompt. */
  turns: number;
  /** How long the run took, in milliseconds. */
  durationMs: number;
  /** With subtype `error`: what went wrong (an SdkError; `toJSON()` gives its plain form). */
  error?: AnySdkError;
  /** With stopReason `approval`: the calls that wait; decide them with `session.resume`. */
  pendingApprovals?: PendingApproval[];
  /** With stopReason `question`: the questions that wait; answer them with `session.resume`. */
  pendingQuestions?: PendingQuestion[];
}

/** What `receive` yields. */
export type SessionMessage = SystemInitMessage | AssistantSessionMessage | UserSessionMessage | ResultMessage;

/**
 * A permission decision: allow (optionally with changed input), deny (optionally ending the run), or
 * ask a person later: the run pauses with stopReason `approval` and `session.resume` decides.
 */
export type PermissionResult =
  | {
      /** Run the call. */
      behavior: "allow";
      /** Arguments to run it with instead of the model's. */
      updatedInput?: JsonObject;
    }
  | {
      /** Do not run the call. */
      behavior: "deny";
      /** What the model is told, as the call's error result (or the run's `stopDetail` with `interrupt`). */
      message: string;
      /** `true` ends the run (stopReason `hookStop`) instead of letting the model go on. Default false. */
      interrupt?: boolean;
    }
  | {
      /** Pause the run (stopReason `approval`) until `session.resume` decides. */
      behavior: "ask";
      /** Shown with the pending approval. */
      message?: string;
    };

/**
 * Decides whether a tool call may run. Without one, the send/receive API runs every call the model
 * asks for. A throw, or no answer within `canUseToolTimeoutMs` (default 300 s), denies the call.
 */
export type CanUseTool = (
  toolName: string,
  input: JsonObject,
  context: CanUseToolContext,
) => PermissionResult | Promise<PermissionResult>;

/** What `canUseTool` is told besides the call: its signal, the call's id and the session's. */
export interface CanUseToolContext {
  /** Aborted when the run is, or when the answer took longer than `canUseToolTimeoutMs`. */
  signal: AbortSignal;
  /** The provider's id for the call. */
  toolCallId: string;
  /** The session's id. */
  sessionId: string;
}
