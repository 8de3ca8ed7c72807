/**
 * What the request readers (read-*-request.ts) share: safe reads of untyped JSON, and the builder that
 * turns a request body's wire messages back into Wisp messages.
 *
 * The wire carries no message ids, timestamps, usage or stop reasons, so the builder makes them up,
 * the same way every time: the n-th message (0-based) of request `index` gets the id
 * `request-<index>-<n>` and timestamp 0; an assistant message gets the request's provider and model,
 * zero usage, and the stop reason `toolUse` when it holds a tool call, else `complete`.
 *
 * @module
 */

import type {
  AssistantContentPart,
  AssistantMessage,
  ImagePart,
  JsonObject,
  Message,
  ProviderId,
  ToolResultPart,
  UserContentPart,
} from "../types.ts";
import type { RecordedTool } from "./script.ts";

/** A request body read back into Wisp's terms; read-request.ts adds the last tool results. */
export interface ReadRequest {
  /** The model the request asks for; `""` when it names none. */
  model: string;
  /** The conversation, without the system prompt. */
  messages: Message[];
  /** The system prompt, when the request has one. */
  systemPrompt?: string;
  /** The tools offered. */
  tools: RecordedTool[];
}

/** Whether `value` is a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The objects of `value` when it is an array (anything else in it skipped); `[]` otherwise. */
export const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** `value` when it is a string, else undefined. */
export const stringOf = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/**
 * A tool call's arguments text as Wisp keeps it: the parsed object, or `{}` with the text in `rawArgs`
 * when it is no JSON object (Wisp sends `rawArgs` back as it came).
 */
export function parsedArgs(text: string): { args: JsonObject; rawArgs?: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return { args: value };
  } catch {
    // kept as raw text below
  }
  return { args: {}, rawArgs: text };
}

/** A tool as offered, when it has a name and an object schema; undefined for anything else. */
export function recordedTool(name: unknown, description: unknown, schema: unknown): RecordedTool | undefined {
  if (typeof name !== "string" || !isObject(schema)) return undefined;
  return { name, description: stringOf(description) ?? "", inputSchema: schema };
}

/** An image from the URL the OpenAI APIs take: a `data:` URL as base64 data and its type, else the URL. */
export function imageFromUrl(url: string): ImagePart {
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (inline?.[1] !== undefined && inline[2] !== undefined)
    return { type: "image", data: inline[2], mimeType: inline[1] };
  return { type: "image", url };
}

/** Texts joined into a system prompt; undefined when there are none. */
export function systemText(texts: string[]): string | undefined {
  return texts.length === 0 ? undefined : texts.join("\n");
}

/** Builds a request's conversation as Wisp messages, in wire order, with derived ids (see the module comment). */
export class WireConversation {
  /** The messages so far. */
  readonly messages: Message[] = [];
  readonly #index: number;
  readonly #provider: ProviderId;
  readonly #model: string;
  /** Tool names by call id, for results that do not name their tool. */
  readonly #names = new Map<string, string>();

  /** A conversation of request `index` (0-based) to `provider`'s `model`. */
  constructor(index: number, provider: ProviderId, model: string) {
    this.#index = index;
    this.#provider = provider;
    this.#model = model;
  }

  #id(): string {
    return `request-${this.#index}-${this.messages.length}`;
  }

  #remember(part: AssistantContentPart): void {
    if (part.type === "tool_call") this.#names.set(part.id, part.name);
  }

  /** The name of the tool call `id`, when the conversation holds that call. */
  nameOf(id: string): string | undefined {
    return this.#names.get(id);
  }

  /** A user message of `content`; nothing when it is empty. */
  user(content: UserContentPart[]): void {
    if (content.length === 0) return;
    this.messages.push({ id: this.#id(), role: "user", content, timestamp: 0 });
  }

  /** An assistant message of `content`; nothing when it is empty. */
  assistant(content: AssistantContentPart[]): void {
    if (content.length === 0) return;
    for (const part of content) this.#remember(part);
    const message: AssistantMessage = {
      id: this.#id(),
      role: "assistant",
      content,
      timestamp: 0,
      provider: this.#provider,
      model: this.#model,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      stopReason: content.some((item) => item.type === "tool_call") ? "toolUse" : "complete",
    };
    this.messages.push(message);
  }

  /** `part` at the end of the last message when that is an assistant message, else in a new one. */
  assistantPart(part: AssistantContentPart): void {
    const last = this.messages.at(-1);
    if (last?.role !== "assistant") {
      this.assistant([part]);
      return;
    }
    this.#remember(part);
    last.content.push(part);
    if (part.type === "tool_call") last.stopReason = "toolUse";
  }

  /**
   * `result` at the end of the last message when that is a tool_result message, else in a new one.
   * A result that names no tool gets its call's name.
   */
  toolResult(result: ToolResultPart): void {
    const name = result.toolName ?? this.#names.get(result.toolCallId);
    const part: ToolResultPart = name === undefined ? result : { ...result, toolName: name };
    const last = this.messages.at(-1);
    if (last?.role === "tool_result") last.content.push(part);
    else this.messages.push({ id: this.#id(), role: "tool_result", content: [part], timestamp: 0 });
  }
}
