/**
 * The script language of the scripted model: what each request is answered with.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";

/** Text, streamed in the given pieces (an array) or in word-sized pieces (a string). */
export interface ScriptText {
  type: "text";
  text: string | string[];
}

/** Reasoning, with an optional signature (sent as Anthropic's signature_delta). */
export interface ScriptThinking {
  type: "thinking";
  text: string | string[];
  signature?: string;
}

/** An Anthropic redacted_thinking block. */
export interface ScriptRedactedThinking {
  type: "redacted_thinking";
  data: string;
}

/**
 * A tool call. `args` as an object is sent as its JSON in a few fragments; as a string it is sent
 * verbatim, which is how invalid tool-call JSON is scripted.
 */
export interface ScriptToolCall {
  type: "tool_call";
  name: string;
  args: JsonObject | string;
  id?: string;
  /** The exact argument fragments to stream (default: the JSON cut every 12 characters). */
  chunks?: string[];
  /** Gemini's `thoughtSignature` on the call. */
  signature?: string;
}

/**
 * The provider's own compaction of the conversation (`compaction: { native: true }`): Anthropic's
 * `compaction` block (the summary in one `compaction_delta`), OpenAI Responses' encrypted `compaction`
 * item. The other APIs have none; they leave it out.
 */
export interface ScriptCompaction {
  type: "compaction";
  summary: string;
}

/** One content part of a scripted answer. */
export type ScriptPart =
  | ScriptText
  | ScriptThinking
  | ScriptRedactedThinking
  | ScriptToolCall
  | ScriptCompaction;

/** A failure before any stream: an HTTP error answer with the provider's own body and headers. */
export interface HttpFault {
  type: "http";
  status: number;
  /** Seconds for `retry-after`. */
  retryAfter?: number;
  /** Milliseconds for `retry-after-ms`. */
  retryAfterMs?: number;
  /** `x-should-retry`. */
  shouldRetry?: boolean;
  /** Overrides the provider's error type (`overloaded_error`, `context_length_exceeded`, ...). */
  errorType?: string;
  message?: string;
}

/** A failure inside a 200 stream, after `afterEvents` events were sent. */
export interface StreamFault {
  type: "error-event" | "truncate" | "reset" | "stall" | "malformed-json";
  afterEvents: number;
  /** For `error-event`: the provider error type (default `overloaded_error` / `server_error`). */
  errorType?: string;
  message?: string;
}

/** A failure of either kind. */
export type Fault = HttpFault | StreamFault;

/** One answer of the scripted model. */
export interface ScriptedTurn {
  content?: ScriptPart[];
  /**
   * The provider's raw stop reason. Default: tool use when the content has a tool call, else a normal
   * end (`end_turn` / `stop`).
   */
  stopReason?: string;
  /** Token counts reported; default: derived from the text lengths. */
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
  /** Milliseconds before the response headers. */
  headersDelayMs?: number;
  /** Milliseconds between stream events. */
  delayMs?: number;
  fault?: Fault;
}

/** A request the scripted model received, as plain data. */
export interface RecordedRequest {
  provider: "anthropic" | "openai-chat" | "openai-responses" | "google" | "unknown";
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: unknown;
  /** The exact body text, for byte-for-byte comparisons. */
  bodyText: string;
}
