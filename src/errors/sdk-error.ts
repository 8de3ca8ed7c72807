/**
 * The SdkError family: every failure Wisp reports is one of these. Each carries a `_tag` (which kind),
 * a `code` (what happened), `retryable`, and where known the HTTP status, the wait the server asked
 * for, the provider and its request id. They are real `Error`s (stack and `cause` work) and serialize
 * to plain JSON with `toJSON()`.
 *
 * @module
 */

/** What went wrong, independent of provider. */
export type ErrorCode =
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
  | "ABORTED"
  | "NETWORK"
  | "CONFIG_INVALID"
  | "SESSION_BUSY"
  | "SESSION_CLOSED"
  | "STREAM_MALFORMED"
  | "STREAM_TRUNCATED"
  | "HOOK_FAILED"
  | "HOOK_TIMEOUT"
  | "HOOK_INVALID_DECISION"
  | "TOOL_FAILED"
  | "TOOL_TIMEOUT"
  | "TOOL_NOT_FOUND"
  | "TOOL_INPUT_INVALID"
  | "BUDGET_EXCEEDED"
  | "MAX_TURNS"
  | "UNKNOWN";

/** The kinds of SdkError, one per class. */
export type ErrorTag =
  | "ConfigError"
  | "ProviderError"
  | "RequestError"
  | "AbortError"
  | "ParseError"
  | "HookError"
  | "ToolError"
  | "BudgetError";

/** Fields every SdkError may carry besides its message. */
export interface SdkErrorFields {
  code: ErrorCode;
  retryable?: boolean;
  status?: number;
  retryAfterMs?: number;
  provider?: string;
  requestId?: string;
  /** The provider's own error type or code (`overloaded_error`, `context_length_exceeded`, ...). */
  providerCode?: string;
  /** Where in an input the problem is, for ConfigError (`messages.3.content`). */
  path?: string;
  /** Structured facts about the failure (a budget's limit and usage, a hook's name and event). Plain JSON. */
  details?: { [key: string]: unknown };
  cause?: unknown;
}

/** The JSON form of an SdkError: what `toJSON()` returns and `SdkError.fromJSON()` reads. */
export interface SerializedSdkError {
  _tag: ErrorTag;
  name: string;
  code: ErrorCode;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  provider?: string;
  requestId?: string;
  providerCode?: string;
  path?: string;
  details?: { [key: string]: unknown };
}

const MARKER = Symbol.for("wisp.sdk-error");

/**
 * The base of every Wisp error. Use {@link isSdkError} rather than `instanceof` when two copies of
 * the package may be loaded: the check goes by a `Symbol.for` marker, which both copies share.
 */
export abstract class SdkError extends Error {
  abstract readonly _tag: ErrorTag;
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly provider?: string;
  readonly requestId?: string;
  readonly providerCode?: string;
  readonly path?: string;
  readonly details?: { [key: string]: unknown };

  constructor(message: string, fields: SdkErrorFields) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.code = fields.code;
    this.retryable = fields.retryable ?? false;
    if (fields.status !== undefined) this.status = fields.status;
    if (fields.retryAfterMs !== undefined) this.retryAfterMs = fields.retryAfterMs;
    if (fields.provider !== undefined) this.provider = fields.provider;
    if (fields.requestId !== undefined) this.requestId = fields.requestId;
    if (fields.providerCode !== undefined) this.providerCode = fields.providerCode;
    if (fields.path !== undefined) this.path = fields.path;
    if (fields.details !== undefined) this.details = fields.details;
  }

  /** A plain-JSON copy that survives `JSON.stringify` and `postMessage`. */
  toJSON(): SerializedSdkError {
    const json: SerializedSdkError = {
      _tag: this._tag,
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
    };
    if (this.status !== undefined) json.status = this.status;
    if (this.retryAfterMs !== undefined) json.retryAfterMs = this.retryAfterMs;
    if (this.provider !== undefined) json.provider = this.provider;
    if (this.requestId !== undefined) json.requestId = this.requestId;
    if (this.providerCode !== undefined) json.providerCode = this.providerCode;
    if (this.path !== undefined) json.path = this.path;
    if (this.details !== undefined) json.details = this.details;
    return json;
  }
}

/** A bad option, a bad session file, an unknown provider: fix the input, do not retry. */
export class ConfigError extends SdkError {
  readonly _tag = "ConfigError" as const;
  override readonly name = "ConfigError";
}

/** The provider answered with an error, as an HTTP error response or an error event mid-stream. */
export class ProviderError extends SdkError {
  readonly _tag = "ProviderError" as const;
  override readonly name = "ProviderError";
}

/** The request failed in transport: the network, a timeout. */
export class RequestError extends SdkError {
  readonly _tag = "RequestError" as const;
  override readonly name = "RequestError";
}

/** The caller aborted. Never retried, never reported as anything else. `cause` is the signal's reason. */
export class AbortError extends SdkError {
  readonly _tag = "AbortError" as const;
  override readonly name = "AbortError";
}

/** The provider's stream could not be read: malformed JSON, a stream cut before its end. */
export class ParseError extends SdkError {
  readonly _tag = "ParseError" as const;
  override readonly name = "ParseError";
}

/** A hook threw, timed out or answered something that is not a decision. */
export class HookError extends SdkError {
  readonly _tag = "HookError" as const;
  override readonly name = "HookError";
}

/** A tool failed in a way the run itself must report. */
export class ToolError extends SdkError {
  readonly _tag = "ToolError" as const;
  override readonly name = "ToolError";
}

/** A budget (tokens, USD, turns) was exceeded. */
export class BudgetError extends SdkError {
  readonly _tag = "BudgetError" as const;
  override readonly name = "BudgetError";
}

const CLASSES: Record<ErrorTag, new (message: string, fields: SdkErrorFields) => SdkError> = {
  ConfigError,
  ProviderError,
  RequestError,
  AbortError,
  ParseError,
  HookError,
  ToolError,
  BudgetError,
};

/** True for any Wisp error, including one made by another copy of the package. */
export function isSdkError(value: unknown): value is SdkError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** Rebuilds a live SdkError from its JSON form (for example after `postMessage`). */
export function sdkErrorFromJSON(json: SerializedSdkError): SdkError {
  const Class = CLASSES[json._tag] ?? ProviderError;
  const { _tag, name, message, ...fields } = json;
  return new Class(message, fields);
}
