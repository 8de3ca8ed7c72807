/**
 * Layer `errors` (docs/architecture.md): the SdkError family, failure classification, redaction, retry delays.
 *
 * The SdkError family: every failure Wisp reports is one of these. Each carries a `_tag` (which kind),
 * a `code` (what happened), `retryable`, and where known the HTTP status, the wait the server asked
 * for, the provider and its request id. They are real `Error`s (stack and `cause` work) and serialize
 * to plain JSON with `toJSON()`.
 *
 * @module
 */

import {
  type BudgetErrorCode,
  type ConfigErrorCode,
  type ErrorCode,
  type HookErrorCode,
  isRetryableCode,
  type ParseErrorCode,
  type ProviderErrorCode,
  type RequestErrorCode,
  type ToolErrorCode,
} from "./error-codes.ts";

export type {
  BudgetErrorCode,
  ConfigErrorCode,
  ErrorCode,
  HookErrorCode,
  ParseErrorCode,
  ProviderErrorCode,
  RequestErrorCode,
  ToolErrorCode,
} from "./error-codes.ts";

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

/** The request a transport or HTTP error is about: its method and URL, with secrets taken out. */
export interface FailedRequest {
  /** The HTTP method (`POST`, `GET`). */
  method: string;
  /** The URL asked for, with secrets (such as a key in its query string) redacted. */
  url: string;
}

/** A cause as plain JSON: what `toJSON()` keeps of `error.cause`, nested causes included. */
export interface SerializedCause {
  /** The cause's `name` (`TypeError`, `AbortError`), or `typeof` for a value that is not an object. */
  name: string;
  /** The cause's message, at most 1,000 characters. */
  message: string;
  /** The runtime's error code, when it has one (`ECONNREFUSED`, `UND_ERR_SOCKET`, …). */
  code?: string;
  /** The cause's own cause, when it has one and the depth limit is not reached. */
  cause?: SerializedCause;
}

/** Fields every SdkError may carry besides its message. */
export interface SdkErrorFields {
  /** What happened, as a stable code (`RATE_LIMITED`, `TIMEOUT`, …); each class has its own set. */
  code: ErrorCode;
  /**
   * Whether trying again later can help. Default: what the code says ({@link isRetryableCode}), so
   * `new ProviderError(message, { code: "RATE_LIMITED" })` is retried like the provider's own 429.
   */
  retryable?: boolean;
  /** The HTTP status of the response that failed, when there was one. */
  status?: number;
  /**
   * How long the server asked to wait before trying again (`retry-after-ms`, `retry-after`, Gemini's
   * `retryDelay`), in milliseconds.
   */
  retryAfterMs?: number;
  /** Who failed: a provider's wire API id (`anthropic`, `openai-chat`, …), `mcp` for an MCP server. */
  provider?: string;
  /**
   * The provider's id for the failed request (its `request-id` or `x-request-id` header, or the error
   * body's), for its support.
   */
  requestId?: string;
  /** The provider's own error type or code (`overloaded_error`, `context_length_exceeded`, ...). */
  providerCode?: string;
  /** Where in an input the problem is, for ConfigError (`messages.3.content`). */
  path?: string;
  /** Structured facts about the failure (a budget's limit and usage, a hook's name and event). Plain JSON. */
  details?: { [key: string]: unknown };
  /** The request that failed (method and URL without secrets), for transport and HTTP errors. */
  request?: FailedRequest;
  /** How many attempts were made before giving up, when more than one was. */
  attempts?: number;
  /** The runtime's code for a transport failure (`ECONNREFUSED`, `ENOTFOUND`, …), from the cause chain. */
  causeCode?: string;
  /**
   * The underlying error or value (a fetch `TypeError`, an abort signal's reason, what a tool threw); becomes
   * `error.cause`.
   */
  cause?: unknown;
}

/** The JSON form of an SdkError: what `toJSON()` returns and `sdkErrorFromJSON()` reads. */
export interface SerializedSdkError {
  /** The error's class, by name; `sdkErrorFromJSON` rebuilds that class. */
  _tag: ErrorTag;
  /** The error's `name` (the same as `_tag` for Wisp's classes). */
  name: string;
  /** What happened (see {@link SdkError.code}). */
  code: ErrorCode;
  /** The human-readable message. */
  message: string;
  /** Whether trying again later can help (see {@link SdkError.retryable}). */
  retryable: boolean;
  /** The HTTP status of the response that failed, when there was one. */
  status?: number;
  /** How long the server asked to wait before trying again, in milliseconds. */
  retryAfterMs?: number;
  /** Who failed: a provider's wire API id, or `mcp`. */
  provider?: string;
  /** The provider's id for the failed request. */
  requestId?: string;
  /** The provider's own error type or code. */
  providerCode?: string;
  /** Where in an input the problem is (ConfigError). */
  path?: string;
  /** Structured facts about the failure, plain JSON. */
  details?: { [key: string]: unknown };
  /** The request that failed (method and URL without secrets). */
  request?: FailedRequest;
  /** How many attempts were made, when more than one was. */
  attempts?: number;
  /** The runtime's code for a transport failure (`ECONNREFUSED`, …). */
  causeCode?: string;
  /** The cause chain as plain data (bounded depth). */
  cause?: SerializedCause;
}

/** How many levels of `cause` `toJSON()` keeps. */
const MAX_CAUSE_DEPTH = 4;

/**
 * The cause chain of `value` as plain data, or undefined when there is none. At most
 * {@link MAX_CAUSE_DEPTH} levels; a cause met again (a cycle) ends the chain.
 */
function serializeCause(
  value: unknown,
  depth = 0,
  seen: Set<unknown> = new Set(),
): SerializedCause | undefined {
  if (value === undefined || depth >= MAX_CAUSE_DEPTH || seen.has(value)) return undefined;
  seen.add(value);
  let name = typeof value;
  let message: string;
  let code: unknown;
  let next: unknown;
  try {
    if (value instanceof Error) {
      name = value.name as typeof name;
      message = String(value.message);
      code = (value as { code?: unknown }).code;
      next = value.cause;
    } else if (typeof value === "object" && value !== null) {
      const record = value as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
      name = (typeof record.name === "string" ? record.name : "object") as typeof name;
      message = typeof record.message === "string" ? record.message : Object.prototype.toString.call(value);
      code = record.code;
      next = record.cause;
    } else {
      message = String(value);
    }
  } catch {
    message = "(a cause that cannot be shown)";
  }
  const serialized: SerializedCause = { name, message: message.slice(0, 1000) };
  if (typeof code === "string") serialized.code = code;
  const nested = serializeCause(next, depth + 1, seen);
  if (nested !== undefined) serialized.cause = nested;
  return serialized;
}

const MARKER = Symbol.for("wisp.sdk-error");

/** The fields an SdkError carries only when known, in the order `toJSON()` writes them. */
const OPTIONAL_FIELDS = [
  "status",
  "retryAfterMs",
  "provider",
  "requestId",
  "providerCode",
  "path",
  "details",
  "request",
  "attempts",
  "causeCode",
] as const;

/**
 * The base of every Wisp error. `instanceof` works across copies of the package (each CommonJS entry
 * point bundles its own, a second install, another realm): it goes by a `Symbol.for` marker, which
 * every copy shares, and the `_tag`. {@link isSdkError} is the same check as a function.
 */
export abstract class SdkError extends Error {
  /**
   * Which kind of error this is; the discriminant of {@link AnySdkError}, and what `Effect.catchTag` matches.
   */
  abstract readonly _tag: ErrorTag;
  /** What happened, as a stable code (`RATE_LIMITED`, `TIMEOUT`, `ABORTED`, …); narrowed by `_tag`. */
  readonly code: ErrorCode;
  /**
   * Whether trying again later can help. Wisp's own retries go by it (with `retry` options); so can yours.
   */
  readonly retryable: boolean;
  /** The HTTP status of the response that failed, when there was one. */
  readonly status?: number;
  /**
   * How long the server asked to wait before trying again (`retry-after-ms`, `retry-after`, Gemini's
   * `retryDelay`), in milliseconds.
   */
  readonly retryAfterMs?: number;
  /**
   * Who failed: a provider's wire API id (`anthropic`, `openai-chat`, `openai-responses`, `google`), `mcp`
   * for an MCP server.
   */
  readonly provider?: string;
  /**
   * The provider's id for the failed request (its `request-id` or `x-request-id` header, or the error
   * body's), to quote to its support.
   */
  readonly requestId?: string;
  /** The provider's own error type or code (`overloaded_error`, `context_length_exceeded`, …). */
  readonly providerCode?: string;
  /** Where in an input the problem is, for ConfigError (`messages.3.content`). */
  readonly path?: string;
  /** Structured facts about the failure (a budget's limit and usage, a hook's name and event). Plain JSON. */
  readonly details?: { [key: string]: unknown };
  /** The request that failed (method and URL without secrets), for transport and HTTP errors. */
  readonly request?: FailedRequest;
  /** How many attempts were made before giving up, when more than one was. */
  readonly attempts?: number;
  /** The runtime's code for a transport failure (`ECONNREFUSED`, `ENOTFOUND`, …), from the cause chain. */
  readonly causeCode?: string;

  constructor(message: string, fields: SdkErrorFields) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.code = fields.code;
    this.retryable = fields.retryable ?? isRetryableCode(fields.code);
    for (const key of OPTIONAL_FIELDS) {
      if (fields[key] !== undefined) (this as Record<string, unknown>)[key] = fields[key];
    }
  }

  /**
   * `error instanceof ProviderError` is true for any Wisp error tagged `ProviderError`, whichever copy
   * of Wisp made it; `instanceof SdkError` for any Wisp error. A class of your own that extends one
   * of these is checked the usual way, by its prototype.
   */
  static override [Symbol.hasInstance]<T>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked about (a subclass too).
    return isInstance(this, value);
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
    for (const key of OPTIONAL_FIELDS) {
      if (this[key] !== undefined) (json as unknown as Record<string, unknown>)[key] = this[key];
    }
    if (this.request !== undefined) json.request = { ...this.request };
    const cause = serializeCause(this.cause);
    if (cause !== undefined) json.cause = cause;
    return json;
  }
}

/** A bad option, a bad session file, an unknown provider: fix the input, do not retry. */
export class ConfigError extends SdkError {
  /** Always `"ConfigError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "ConfigError" as const;
  /** Always `"ConfigError"`, as stack traces and `String(error)` show it. */
  override readonly name = "ConfigError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: ConfigErrorCode;
}

/** The provider answered with an error, as an HTTP error response or an error event mid-stream. */
export class ProviderError extends SdkError {
  /** Always `"ProviderError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "ProviderError" as const;
  /** Always `"ProviderError"`, as stack traces and `String(error)` show it. */
  override readonly name = "ProviderError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: ProviderErrorCode;
}

/** The request failed in transport: the network, a timeout. */
export class RequestError extends SdkError {
  /** Always `"RequestError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "RequestError" as const;
  /** Always `"RequestError"`, as stack traces and `String(error)` show it. */
  override readonly name = "RequestError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: RequestErrorCode;
}

/** The caller aborted. Never retried, never reported as anything else. `cause` is the signal's reason. */
export class AbortError extends SdkError {
  /** Always `"AbortError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "AbortError" as const;
  /** Always `"AbortError"`, as stack traces and `String(error)` show it. */
  override readonly name = "AbortError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: "ABORTED";
}

/**
 * Input could not be read: a provider's stream (malformed JSON, cut before its end), or a transcript of
 * another runtime with nothing readable in it (`TRANSCRIPT_INVALID`, from `wisp-agent/formats`).
 */
export class ParseError extends SdkError {
  /** Always `"ParseError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "ParseError" as const;
  /** Always `"ParseError"`, as stack traces and `String(error)` show it. */
  override readonly name = "ParseError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: ParseErrorCode;
}

/** A hook threw, timed out or answered something that is not a decision. */
export class HookError extends SdkError {
  /** Always `"HookError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "HookError" as const;
  /** Always `"HookError"`, as stack traces and `String(error)` show it. */
  override readonly name = "HookError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: HookErrorCode;
}

/** A tool failed in a way the run itself must report. */
export class ToolError extends SdkError {
  /** Always `"ToolError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "ToolError" as const;
  /** Always `"ToolError"`, as stack traces and `String(error)` show it. */
  override readonly name = "ToolError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: ToolErrorCode;
}

/** A budget (tokens, USD, turns) was exceeded. */
export class BudgetError extends SdkError {
  /** Always `"BudgetError"`: narrows {@link AnySdkError} to this class. */
  readonly _tag = "BudgetError" as const;
  /** Always `"BudgetError"`, as stack traces and `String(error)` show it. */
  override readonly name = "BudgetError";
  /** What happened; narrowed by `_tag`, so a `switch` over it can be exhaustive. */
  declare readonly code: BudgetErrorCode;
}

/**
 * Every SdkError, as a union discriminated by `_tag`: `switch (error._tag)` narrows to the class, and
 * each class's `code` to its own codes.
 */
export type AnySdkError =
  | ConfigError
  | ProviderError
  | RequestError
  | AbortError
  | ParseError
  | HookError
  | ToolError
  | BudgetError;

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

/**
 * Whether `value` is an instance of the error class `Class`: any Wisp error for SdkError; for a Wisp
 * class, a Wisp error with its tag (from any copy of the package); for a class of your own, by prototype.
 */
function isInstance(Class: unknown, value: unknown): boolean {
  return (
    isSdkError(value) &&
    (Class === SdkError ||
      CLASSES[value._tag] === Class ||
      Function.prototype[Symbol.hasInstance].call(Class, value))
  );
}

/**
 * True for any Wisp error, including one made by another copy of the package. Never throws: a value
 * that cannot be looked at (a revoked Proxy) is no Wisp error.
 */
export function isSdkError(value: unknown): value is AnySdkError {
  try {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  } catch {
    return false;
  }
}

/** Rebuilds a live SdkError from its JSON form (for example after `postMessage`). */
export function sdkErrorFromJSON(json: SerializedSdkError): AnySdkError {
  const Class = Object.hasOwn(CLASSES, json._tag) ? CLASSES[json._tag] : ProviderError;
  const { _tag, name, message, ...fields } = json;
  return new Class(message, fields) as AnySdkError;
}
