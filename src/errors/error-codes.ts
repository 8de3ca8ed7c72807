/**
 * What went wrong, as codes: each kind of SdkError's own codes, their union, and which of them are
 * worth another attempt (what an error made without an explicit `retryable` takes).
 *
 * @module
 */

/** What went wrong, independent of provider: every kind's codes together. */
export type ErrorCode =
  | ConfigErrorCode
  | ProviderErrorCode
  | RequestErrorCode
  | "ABORTED"
  | ParseErrorCode
  | HookErrorCode
  | ToolErrorCode
  | BudgetErrorCode;

/** The codes a ConfigError carries. */
export type ConfigErrorCode =
  | "CONFIG_INVALID"
  | "SESSION_BUSY"
  | "SESSION_CLOSED"
  /** A prompt was sent while tool calls wait for approval: resume them first. */
  | "APPROVAL_PENDING"
  /** A decision names no pending call, repeats one, replays a used one, edits arguments badly, approves a call whose tool the session lacks, or answers a question (the ask tool's) with answers that do not fit it. */
  | "APPROVAL_INVALID"
  /** A pending approval or question was changed after the pause, or its signature does not verify. */
  | "APPROVAL_TAMPERED"
  /** A fork's `parentId` or a branch's leaf id names no message that can be continued (see docs/forks.md). */
  | "BRANCH_INVALID"
  /** The two sides of a bridge (`wisp-agent/bridge`) speak different protocol versions. */
  | "BRIDGE_VERSION";

/** The codes a ProviderError carries: what the provider's answer meant. */
export type ProviderErrorCode =
  | "AUTH"
  | "PERMISSION"
  | "BILLING"
  | "QUOTA_EXCEEDED"
  | "RATE_LIMITED"
  | "OVERLOADED"
  | "SERVER_ERROR"
  | "MODEL_NOT_FOUND"
  | "NOT_FOUND"
  | "CONTEXT_LENGTH"
  | "INVALID_REQUEST"
  | "REQUEST_TOO_LARGE"
  | "CONFLICT"
  | "TIMEOUT"
  | "UNKNOWN";

/** The codes a RequestError carries: the transport failed, or something the message names. */
export type RequestErrorCode =
  | "NETWORK"
  /** The other side of a bridge is gone: the worker ended, the port closed, or it stopped answering. */
  | "BRIDGE_CLOSED"
  | "TIMEOUT"
  | "CONTEXT_LENGTH"
  | "OVERLOADED"
  | "RATE_LIMITED"
  | "UNKNOWN";

/** The codes a ParseError carries. */
export type ParseErrorCode =
  | "STREAM_MALFORMED"
  | "STREAM_TRUNCATED"
  | "CONFIG_INVALID"
  /** A session transcript of another runtime (Claude Code, pi) has nothing Wisp can read. */
  | "TRANSCRIPT_INVALID"
  /** A structured answer that is not JSON or does not match the output schema, after its retries. */
  | "OUTPUT_INVALID";

/** The codes a HookError carries. */
export type HookErrorCode = "HOOK_FAILED" | "HOOK_TIMEOUT" | "HOOK_INVALID_DECISION";

/** The codes a ToolError carries. */
export type ToolErrorCode = "TOOL_FAILED" | "TOOL_TIMEOUT" | "TOOL_NOT_FOUND" | "TOOL_INPUT_INVALID";

/** The codes a BudgetError carries. */
export type BudgetErrorCode = "BUDGET_EXCEEDED" | "MAX_TURNS";

/** Codes that are worth another attempt unless the server says otherwise. */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RATE_LIMITED",
  "OVERLOADED",
  "SERVER_ERROR",
  "TIMEOUT",
  "NETWORK",
  "CONFLICT",
  "STREAM_TRUNCATED",
]);

/**
 * True when errors with this code are retried by default: `RATE_LIMITED`, `OVERLOADED`,
 * `SERVER_ERROR`, `TIMEOUT`, `NETWORK`, `CONFLICT` and `STREAM_TRUNCATED`. An SdkError made without
 * `retryable` takes this as its `retryable`.
 */
export function isRetryableCode(code: ErrorCode): boolean {
  return RETRYABLE_CODES.has(code);
}
