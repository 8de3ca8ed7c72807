/**
 * Layer `types` (docs/architecture.md): the domain model: messages, parts, usage, stop reasons, turn events.
 *
 * The normalized domain model: every provider is mapped into these plain-JSON shapes and out of them.
 * Nothing here is a class, a function or a Date, so a value survives `JSON.stringify` → `JSON.parse`
 * unchanged. Timestamps are epoch milliseconds.
 *
 * @module
 */

import type { AnySdkError, SerializedSdkError } from "./errors/sdk-error.ts";

/** Any value that survives a JSON round trip. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The wire APIs Wisp speaks. A provider id names a wire format, not a company. */
export type ProviderId = "anthropic" | "openai-chat" | "openai-responses" | "google";

/** Plain text. `citations` are kept verbatim where a provider attaches them (Anthropic web search). */
export interface TextPart {
  type: "text";
  text: string;
  citations?: JsonValue[];
  /** An opaque signature the provider attached (Gemini's `thoughtSignature`); sent back only to it. */
  signature?: string;
}

/** An image, either inline base64 data with its MIME type or a URL the provider fetches itself. */
export interface ImagePart {
  type: "image";
  /** Base64 data without a `data:` prefix. */
  data?: string;
  mimeType?: string;
  url?: string;
}

/** A call the model asked for. `args` is the parsed JSON object; `rawArgs` holds text that did not parse. */
export interface ToolCallPart {
  type: "tool_call";
  id: string;
  name: string;
  args: JsonObject;
  /** Present only when the streamed arguments were not valid JSON (for example cut off by max tokens). */
  rawArgs?: string;
  /** An opaque signature the provider attached (Gemini's `thoughtSignature`); sent back only to it. */
  signature?: string;
}

/** The outcome of a tool call, sent back to the model. */
export interface ToolResultPart {
  type: "tool_result";
  toolCallId: string;
  toolName?: string;
  output: string;
  /**
   * Images the tool returned beside its text (a screenshot, a chart, an MCP image), sent to the model
   * after the text: inside the tool result where the API allows it (Anthropic, Responses, Gemini), in
   * a user message right after the results on Chat Completions. Absent when there are none.
   */
  images?: ImagePart[];
  isError: boolean;
}

/** Visible reasoning. `signature` is opaque provider data that must be sent back verbatim. */
export interface ThinkingPart {
  type: "thinking";
  text: string;
  signature?: string;
}

/** Reasoning the provider encrypted; `data` goes back to the same provider unchanged. */
export interface RedactedThinkingPart {
  type: "redacted_thinking";
  data: string;
}

/**
 * A provider-specific block kept verbatim, such as Anthropic's `server_tool_use` and
 * `web_search_tool_result` blocks. It is sent back only to the provider that produced it.
 */
export interface ProviderPart {
  type: "provider";
  provider: ProviderId;
  block: JsonObject;
}

/** Every kind of content a message can hold. */
export type ContentPart =
  | TextPart
  | ImagePart
  | ToolCallPart
  | ToolResultPart
  | ThinkingPart
  | RedactedThinkingPart
  | ProviderPart;

/** Content an assistant message can hold. */
export type AssistantContentPart =
  | TextPart
  | ToolCallPart
  | ThinkingPart
  | RedactedThinkingPart
  | ProviderPart;

/** Content a user message can hold. */
export type UserContentPart = TextPart | ImagePart;

/**
 * Token counts for one model response (or a sum of them). `input` excludes cached tokens, so the
 * whole prompt is `input + cacheRead + cacheWrite`. `reasoning` is the part of `output` spent thinking.
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  /** USD, present when the model's price is known (or the provider reported it). */
  costUsd?: number;
}

/**
 * Why a model turn or a run ended. The unified value is what code should switch on; the provider's own
 * value is kept beside it as `rawStopReason`.
 */
export type StopReason =
  | "complete"
  | "maxTokens"
  | "toolUse"
  | "pauseTurn"
  | "refusal"
  | "aborted"
  | "error"
  | "budget"
  | "maxTurns"
  | "hookStop"
  /** The run paused: tool calls wait for a person's decision (`pendingApprovals`, `session.resume`). */
  | "approval";

/** A message from the user. */
export interface UserMessage {
  id: string;
  role: "user";
  content: UserContentPart[];
  timestamp: number;
}

/** A model response, complete or partial. A failed or aborted turn keeps what arrived and says why. */
export interface AssistantMessage {
  id: string;
  role: "assistant";
  content: AssistantContentPart[];
  timestamp: number;
  provider: ProviderId;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  /** The provider's own stop reason (`end_turn`, `tool_calls`, `max_tokens`, ...). */
  rawStopReason?: string;
  /** The stop sequence that ended the response, when one did. */
  stopSequence?: string;
  /** The provider's id for this response (`msg_…`, `chatcmpl-…`). */
  responseId?: string;
  /** Present when the turn failed or was aborted. */
  error?: SerializedSdkError;
}

/** The results of the tool calls of one assistant message, in the model's order. */
export interface ToolResultMessage {
  id: string;
  role: "tool_result";
  content: ToolResultPart[];
  timestamp: number;
}

/** Any message of a conversation. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: a name, a description and a JSON Schema for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

/** How much the model should think before answering; mapped per provider to its own form. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high";

/** A normalized request for one model turn. */
export interface ModelRequest {
  messages: Message[];
  systemPrompt?: string;
  tools?: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  thinking?: ThinkingLevel;
  stopSequences?: string[];
  /** Prompt caching: on unless `false` (see {@link PromptCache}). */
  cache?: PromptCache | false;
  /** Structured output: the answer (a turn without tool calls) is JSON matching `schema`. */
  output?: OutputFormat;
  /**
   * The provider's own compaction (Anthropic's `compact_20260112` edit, OpenAI Responses'
   * `context_management`): past `threshold` prompt tokens the server summarizes older context into a
   * block it reads back later (kept as a provider part). Other APIs ignore it.
   */
  nativeCompaction?: { threshold?: number; instructions?: string };
}

/** The JSON Schema a structured answer must match, sent in each API's native mode. */
export interface OutputFormat {
  /** A name for the schema, where the API asks for one (letters, digits, `_` and `-`). */
  name: string;
  schema: JsonObject;
}

/**
 * Prompt caching, on by default. Anthropic caches only what a request marks, so Wisp marks the tools,
 * the system prompt, and the end of the conversation (rolling: the previous request's end is marked
 * too, so each turn reads what the one before wrote) — four breakpoints at most, the API's limit.
 * OpenAI caches long prefixes by itself; Wisp sends a stable `prompt_cache_key` (the session's id in
 * an agent run) so a session's requests reach the same cache. Gemini caches implicitly; nothing is
 * sent. Cache reads and writes are priced in `costUsd` and count in budgets.
 */
export interface PromptCache {
  /** Anthropic: how long an entry lives, `"5m"` (default) or `"1h"` (its writes cost twice the input price). */
  ttl?: "5m" | "1h";
  /** OpenAI: the `prompt_cache_key`. An agent run sends its session id unless this is set. */
  key?: string;
  /** OpenAI: `prompt_cache_retention`, `"in_memory"` (the API's default) or `"24h"`. */
  retention?: "in_memory" | "24h";
}

/**
 * The events of one streamed model turn, in order: `turn-start`, then for each content part a
 * `*-start`, its deltas and a closing event, then exactly one `turn-end` or `error` (always last).
 * `index` is the part's position in the final message's `content`.
 */
export type TurnEvent =
  | { type: "turn-start"; provider: ProviderId; model: string }
  | { type: "retry"; attempt: number; delayMs: number; error: AnySdkError }
  | { type: "text-start"; index: number }
  | { type: "text-delta"; index: number; delta: string }
  | { type: "text-end"; index: number; text: string }
  | { type: "thinking-start"; index: number }
  | { type: "thinking-delta"; index: number; delta: string }
  | { type: "thinking-end"; index: number; part: ThinkingPart | RedactedThinkingPart }
  | { type: "tool-call-start"; index: number; id: string; name: string }
  | { type: "tool-call-delta"; index: number; delta: string }
  | { type: "tool-call"; index: number; toolCall: ToolCallPart }
  | { type: "provider-part"; index: number; part: ProviderPart }
  | { type: "usage"; usage: Usage }
  | { type: "turn-end"; message: AssistantMessage }
  | { type: "error"; error: AnySdkError; message: AssistantMessage };
