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
  /** Identifies a text part. */
  type: "text";
  /** The text itself. */
  text: string;
  /**
   * The provider's citation objects for this text, verbatim (Anthropic web search); absent when there are
   * none.
   */
  citations?: JsonValue[];
  /** An opaque signature the provider attached (Gemini's `thoughtSignature`); sent back only to it. */
  signature?: string;
}

/** An image, either inline base64 data with its MIME type or a URL the provider fetches itself. */
export interface ImagePart {
  /** Identifies an image part. */
  type: "image";
  /** Base64 data without a `data:` prefix. */
  data?: string;
  /** The MIME type of `data` (`image/png`, `image/jpeg`, …); required with `data`. */
  mimeType?: string;
  /** An `http(s)` URL the provider fetches the image from, instead of inline `data`. */
  url?: string;
}

/** A call the model asked for. `args` is the parsed JSON object; `rawArgs` holds text that did not parse. */
export interface ToolCallPart {
  /** Identifies a tool call part. */
  type: "tool_call";
  /** The provider's id for this call; the matching {@link ToolResultPart.toolCallId} refers to it. */
  id: string;
  /** The name of the tool the model wants to run. */
  name: string;
  /** The call's arguments, parsed from the streamed JSON (`{}` when they did not parse; see `rawArgs`). */
  args: JsonObject;
  /** Present only when the streamed arguments were not valid JSON (for example cut off by max tokens). */
  rawArgs?: string;
  /** An opaque signature the provider attached (Gemini's `thoughtSignature`); sent back only to it. */
  signature?: string;
}

/** The outcome of a tool call, sent back to the model. */
export interface ToolResultPart {
  /** Identifies a tool result part. */
  type: "tool_result";
  /** The {@link ToolCallPart.id} of the call this answers. */
  toolCallId: string;
  /** The name of the tool that ran, where known (some APIs, such as Gemini's, need it beside the id). */
  toolName?: string;
  /** What the model reads: the tool's text output, or the error message when `isError` is true. */
  output: string;
  /**
   * Images the tool returned beside its text (a screenshot, a chart, an MCP image), sent to the model
   * after the text: inside the tool result where the API allows it (Anthropic, Responses, Gemini), in
   * a user message right after the results on Chat Completions. Absent when there are none.
   */
  images?: ImagePart[];
  /**
   * True when the tool failed, timed out, was denied or not run, or its input was invalid; the model is told
   * it is an error.
   */
  isError: boolean;
}

/** Visible reasoning. `signature` is opaque provider data that must be sent back verbatim. */
export interface ThinkingPart {
  /** Identifies a visible reasoning part. */
  type: "thinking";
  /** The reasoning text (a summary on APIs that only return summaries). */
  text: string;
  /**
   * Opaque provider data that must be sent back verbatim with this part; absent when the provider sent none.
   */
  signature?: string;
}

/** Reasoning the provider encrypted; `data` goes back to the same provider unchanged. */
export interface RedactedThinkingPart {
  /** Identifies an encrypted reasoning part. */
  type: "redacted_thinking";
  /** The encrypted reasoning, opaque; sent back verbatim to the provider that produced it. */
  data: string;
}

/**
 * A provider-specific block kept verbatim, such as Anthropic's `server_tool_use` and
 * `web_search_tool_result` blocks. It is sent back only to the provider that produced it.
 */
export interface ProviderPart {
  /** Identifies a provider-specific part. */
  type: "provider";
  /** The wire API that produced the block; it is sent back only to that one. */
  provider: ProviderId;
  /** The block as the provider sent it, verbatim. */
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
  /** Prompt tokens read without the cache. */
  input: number;
  /** Tokens generated, reasoning included. */
  output: number;
  /** Prompt tokens read from the provider's prompt cache. */
  cacheRead: number;
  /** Prompt tokens written to the provider's prompt cache (Anthropic bills them above the input price). */
  cacheWrite: number;
  /** The part of `output` spent thinking (0 where the provider does not report it). */
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
  | "approval"
  /** The run paused: the model asked the person questions (`pendingQuestions`, `session.resume`). */
  | "question";

/** A message from the user. */
export interface UserMessage {
  /** A random UUID Wisp gives the message; it stays the same across snapshots and resumes. */
  id: string;
  /** Identifies a user message. */
  role: "user";
  /** Text and images, in order. */
  content: UserContentPart[];
  /** When the message was created, in epoch milliseconds. */
  timestamp: number;
}

/** A model response, complete or partial. A failed or aborted turn keeps what arrived and says why. */
export interface AssistantMessage {
  /** A random UUID Wisp gives the message (the provider's own id is `responseId`). */
  id: string;
  /** Identifies an assistant message. */
  role: "assistant";
  /** Text, reasoning, tool calls and provider blocks, in the order the model produced them. */
  content: AssistantContentPart[];
  /** When the turn's last attempt began, in epoch milliseconds. */
  timestamp: number;
  /** The wire API that produced the response. */
  provider: ProviderId;
  /** The model id the request named (without the provider prefix). */
  model: string;
  /** Tokens used by this response, with its cost in USD when the price is known. */
  usage: Usage;
  /** Why the response ended, normalized across providers. */
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
  /** A random UUID Wisp gives the message. */
  id: string;
  /** Identifies a message of tool results. */
  role: "tool_result";
  /** One result per tool call of the assistant message before it, in the model's order. */
  content: ToolResultPart[];
  /** When the results were collected, in epoch milliseconds. */
  timestamp: number;
}

/** Any message of a conversation. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: a name, a description and a JSON Schema for its input. */
export interface ToolSpec {
  /** The name the model calls the tool by. */
  name: string;
  /** What the tool does and when to use it, for the model. */
  description: string;
  /** A JSON Schema (an object schema) for the tool's arguments. */
  inputSchema: JsonObject;
}

/** How much the model should think before answering; mapped per provider to its own form. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high";

/** A normalized request for one model turn. */
export interface ModelRequest {
  /** The conversation so far, oldest first. */
  messages: Message[];
  /** Instructions sent as the system prompt; none when absent. */
  systemPrompt?: string;
  /** The tools the model may call; none when absent or empty. */
  tools?: ToolSpec[];
  /** The most tokens the response may have; the provider's default when absent. */
  maxTokens?: number;
  /** Sampling temperature; the provider's default when absent. */
  temperature?: number;
  /** How much the model should think; the model's own default when absent. */
  thinking?: ThinkingLevel;
  /**
   * Strings that end the response when the model writes them (`stopReason` `complete`, `stopSequence` set).
   */
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
  nativeCompaction?: {
    /**
     * Prompt tokens past which the server compacts. Default: 200,000 on OpenAI Responses; Anthropic's own
     * default, and never less than its minimum of 50,000.
     */
    threshold?: number;
    /** Instructions for the summary, where the API takes them (Anthropic); the API's default prompt when absent. */
    instructions?: string;
  };
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
  | {
      /** The turn's request is about to be sent (once per turn, before any retry). */
      type: "turn-start";
      /** The wire API the turn speaks. */
      provider: ProviderId;
      /** The model id, without the provider prefix. */
      model: string;
    }
  | {
      /** An attempt failed before any output arrived and will be retried after `delayMs`. */
      type: "retry";
      /** The number of the retry about to be made: 1 for the first. */
      attempt: number;
      /** How long Wisp waits before the retry, in milliseconds (the server's `retry-after` when it sent one). */
      delayMs: number;
      /** Why the attempt failed (secrets redacted). */
      error: AnySdkError;
    }
  | {
      /** A text part began. */
      type: "text-start";
      /** The part's position in the message's `content`. */
      index: number;
    }
  | {
      /** More text arrived for the part at `index`. */
      type: "text-delta";
      /** The part's position in the message's `content`. */
      index: number;
      /** The new text, to append to what came before. */
      delta: string;
    }
  | {
      /** The text part at `index` is complete. */
      type: "text-end";
      /** The part's position in the message's `content`. */
      index: number;
      /** The part's whole text. */
      text: string;
    }
  | {
      /** A reasoning part began (visible or redacted). */
      type: "thinking-start";
      /** The part's position in the message's `content`. */
      index: number;
    }
  | {
      /** More visible reasoning arrived for the part at `index`. */
      type: "thinking-delta";
      /** The part's position in the message's `content`. */
      index: number;
      /** The new reasoning text, to append to what came before. */
      delta: string;
    }
  | {
      /** The reasoning part at `index` is complete. */
      type: "thinking-end";
      /** The part's position in the message's `content`. */
      index: number;
      /** The whole part, with its signature (or the encrypted data of a redacted one). */
      part: ThinkingPart | RedactedThinkingPart;
    }
  | {
      /** The model began a tool call; its arguments stream next. */
      type: "tool-call-start";
      /** The part's position in the message's `content`. */
      index: number;
      /** The provider's id for the call. */
      id: string;
      /** The name of the tool called. */
      name: string;
    }
  | {
      /** More of the tool call's arguments arrived. */
      type: "tool-call-delta";
      /** The part's position in the message's `content`. */
      index: number;
      /** Raw JSON text of the arguments, to append to what came before (not parseable on its own). */
      delta: string;
    }
  | {
      /** The tool call at `index` is complete, its arguments parsed. */
      type: "tool-call";
      /** The part's position in the message's `content`. */
      index: number;
      /** The whole call. */
      toolCall: ToolCallPart;
    }
  | {
      /** A provider-specific block arrived whole (such as Anthropic's server tool blocks). */
      type: "provider-part";
      /** The part's position in the message's `content`. */
      index: number;
      /** The block, kept verbatim. */
      part: ProviderPart;
    }
  | {
      /** The provider reported token counts; each replaces the previous one. */
      type: "usage";
      /** The turn's usage so far (cumulative, not a delta). */
      usage: Usage;
    }
  | {
      /** The turn completed. */
      type: "turn-end";
      /** The whole assistant message. */
      message: AssistantMessage;
    }
  | {
      /** The turn failed or was aborted; nothing follows. */
      type: "error";
      /** Why: an `AbortError` for an abort, otherwise the error after any retries. */
      error: AnySdkError;
      /** The message as far as it got, with `stopReason` `error` or `aborted` and the error attached. */
      message: AssistantMessage;
    };
