/**
 * The script language of the scripted model: what each request is answered with.
 *
 * @module
 */

import type { JsonObject, Message, ToolResultPart } from "../types.ts";

/** Text, streamed in the given pieces (an array) or in word-sized pieces (a string). */
export interface ScriptText {
  /** Identifies a text part. */
  type: "text";
  /** The text: a string is streamed in word-sized pieces, an array piece by piece as given. */
  text: string | string[];
}

/** Reasoning, with an optional signature (sent as Anthropic's signature_delta). */
export interface ScriptThinking {
  /** Identifies a reasoning part. */
  type: "thinking";
  /** The reasoning text: a string is streamed in word-sized pieces, an array piece by piece as given. */
  text: string | string[];
  /** The signature sent after the text; none when absent. */
  signature?: string;
}

/** An Anthropic redacted_thinking block. */
export interface ScriptRedactedThinking {
  /** Identifies a redacted reasoning block. */
  type: "redacted_thinking";
  /** The block's opaque data, sent whole. */
  data: string;
}

/**
 * A tool call. `args` as an object is sent as its JSON in a few fragments; as a string it is sent
 * verbatim, which is how invalid tool-call JSON is scripted.
 */
export interface ScriptToolCall {
  /** Identifies a tool call. */
  type: "tool_call";
  /** The name of the tool called. */
  name: string;
  /** The arguments: an object is sent as its JSON; a string verbatim, valid JSON or not. */
  args: JsonObject | string;
  /** The call's id. Default: a random id in the provider's style (`toolu_01…` for Anthropic). */
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
  /** Identifies a compaction part. */
  type: "compaction";
  /** The summary text the compaction block carries. */
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
  /** Identifies an HTTP error answer. */
  type: "http";
  /** The HTTP status to answer with (429, 500, 529, …). */
  status: number;
  /** Seconds for `retry-after`. */
  retryAfter?: number;
  /** Milliseconds for `retry-after-ms`. */
  retryAfterMs?: number;
  /** `x-should-retry`. */
  shouldRetry?: boolean;
  /** Overrides the provider's error type (`overloaded_error`, `context_length_exceeded`, ...). */
  errorType?: string;
  /** The error message in the provider's error body. Default: `Scripted HTTP <status>`. */
  message?: string;
}

/** A failure inside a 200 stream, after `afterEvents` events were sent. */
export interface StreamFault {
  /**
   * What goes wrong: `error-event` sends the provider's error event, `truncate` ends the stream early without
   * its closing events, `reset` fails the connection, `stall` sends nothing more until the request is
   * aborted, `malformed-json` sends an event whose data is not JSON.
   */
  type: "error-event" | "truncate" | "reset" | "stall" | "malformed-json";
  /** How many of the answer's events are sent before the fault (0: none). */
  afterEvents: number;
  /** For `error-event`: the provider error type (default `overloaded_error` / `server_error`). */
  errorType?: string;
  /** For `error-event`: the error message (default: the provider's usual one, such as `Overloaded`). */
  message?: string;
}

/** A failure of either kind. */
export type Fault = HttpFault | StreamFault;

/** One answer of the scripted model. */
export interface ScriptedTurn {
  /** The answer's content parts, streamed in order; an answer without content when absent. */
  content?: ScriptPart[];
  /**
   * The provider's raw stop reason. Default: tool use when the content has a tool call, else a normal
   * end (`end_turn` / `stop`).
   */
  stopReason?: string;
  /** Token counts reported; default: derived from the text lengths. */
  usage?: {
    /** Uncached prompt tokens. */
    input?: number;
    /** Generated tokens. */
    output?: number;
    /** Prompt tokens read from the cache. */
    cacheRead?: number;
    /** Prompt tokens written to the cache. */
    cacheWrite?: number;
    /** The part of `output` spent reasoning. */
    reasoning?: number;
  };
  /** Milliseconds before the response headers. */
  headersDelayMs?: number;
  /** Milliseconds between stream events. */
  delayMs?: number;
  /** A failure to script instead of (or in the middle of) the answer. */
  fault?: Fault;
}

/** A tool a request offers the model, as Wisp describes it (the `ToolSpec` of the request). */
export interface RecordedTool {
  /** The tool's name. */
  name: string;
  /** The tool's description, as sent. */
  description: string;
  /** The JSON Schema of the tool's input, as sent. */
  inputSchema: JsonObject;
}

/**
 * A request the scripted model received, as plain data: as it came on the wire (`method`, `url`,
 * `headers`, `body`, `bodyText`), and read back into Wisp's own terms (`model`, `messages`,
 * `systemPrompt`, `tools`, `toolResults`), the same for every provider, so a test can answer a request
 * without parsing its wire format.
 *
 * The Wisp-terms fields are read from the body each provider's request builder sends. What a wire
 * format cannot carry does not come back (see each `read-*-request.ts` in `src/testing/` for the whole
 * list), chiefly:
 * - ids, timestamps, usage and stop reasons: the n-th message of request `index` (0-based, the index
 *   `respond` gets) has the id `request-<index>-<n>` and timestamp 0; an assistant message has the
 *   request's provider and model, zero usage and stop reason `toolUse` when it holds a tool call, else
 *   `complete`;
 * - Gemini's tool-call ids (Gemini sends none): the n-th call of the conversation is `gemini-call-<n>`,
 *   its result paired by name and order;
 * - whether a tool result is an error, on both OpenAI APIs (`isError` is false);
 * - what Wisp did not send: another provider's reasoning, empty messages, blank text; neighbouring
 *   messages of one side that the wire joins come back as one;
 * - structured output's schema and the request's settings (token limit, temperature, thinking, stop
 *   sequences, caching). Gemini's hidden `final_answer` tool is not among `tools`.
 *
 * For an unknown API or a body that is no JSON object, `model` is `""` and the lists are empty.
 */
export interface RecordedRequest {
  /** Which wire API the request speaks, from its URL path; `unknown` when none matches. */
  provider: "anthropic" | "openai-chat" | "openai-responses" | "google" | "unknown";
  /** The HTTP method. */
  method: string;
  /** The whole request URL. */
  url: string;
  /** The request headers, by lowercase name. */
  headers: Record<string, string>;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: unknown;
  /** The exact body text, for byte-for-byte comparisons. */
  bodyText: string;
  /** The model the request asks for (Gemini's from the URL); `""` when unknown. */
  model: string;
  /**
   * The conversation in Wisp's terms, in order: user messages, assistant messages (text, thinking,
   * tool calls, provider parts) and tool_result messages. The system prompt is not among them.
   */
  messages: Message[];
  /** The system prompt, when the request has one. */
  systemPrompt?: string;
  /** The tools offered, with their JSON Schemas; `[]` when none. */
  tools: RecordedTool[];
  /**
   * The tool results the request's last message carries: those sent after the model's last turn
   * (also when a user message follows them); `[]` when the request sends none.
   */
  toolResults: ToolResultPart[];
}
