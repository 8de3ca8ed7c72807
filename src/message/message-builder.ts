/**
 * Layer `message` (docs/architecture.md): one message: the builder a stream drives, storable values, ids, images, text.
 *
 * Builds one assistant message from a provider's stream and emits the normalized turn events as it
 * goes. Providers speak to it in their own terms: a part is opened under a key the provider chooses
 * (Anthropic's block index, OpenAI's tool-call index), grown with deltas, and closed. Whatever happens,
 * the message it holds is always a valid partial message.
 *
 * @module
 */

import type { AnySdkError } from "../errors/sdk-error.ts";
import type {
  AssistantContentPart,
  AssistantMessage,
  JsonObject,
  ProviderId,
  StopReason,
  ToolCallPart,
  TurnEvent,
  Usage,
} from "../types.ts";
import { costOf, type ModelPrice } from "../usage/prices.ts";
import { emptyUsage } from "../usage/usage.ts";
import { randomId } from "./random-id.ts";
import { nestsDeeperThan, storableId, storableUsage } from "./storable-values.ts";

interface OpenPart {
  index: number;
  kind: "text" | "thinking" | "tool" | "provider";
  /** What has streamed so far (text, reasoning, or a tool call's arguments), set on the part when it closes. */
  streamed: string;
  /** How many deltas `streamed` was joined from. */
  deltas: number;
}

/**
 * Text or reasoning that streamed in deltas shorter than this on average is made one flat string when
 * its part closes. Text joined by `+=` is a rope (in V8, JavaScriptCore and SpiderMonkey alike): beside
 * each delta, a node of 20 to 40 bytes, so deltas of a few characters take several times the text's
 * own size, held for as long as the message is kept. Flattening copies the whole text; for long deltas
 * that buys little memory and costs time (in V8 about 1 ms per 1.6 MB, a fifth of decoding a stream
 * of 2,000 deltas of 400 to 1,200 characters, bench/decoding-honest.mjs).
 */
const FLAT_BELOW_CHARS_PER_DELTA = 64;

/**
 * Makes the engine store `text` as one flat string: reading a string as a number flattens a rope in
 * place (measured in V8; the others make a rope flat to read it too), and costs little past that, as
 * the read gives up at the first character no number has.
 */
function flatten(text: string): void {
  Number(text);
}

/**
 * Parses streamed tool arguments; `""` is `{}` (a tool without arguments). Anything that is not a
 * JSON object, or nests deeper than Wisp stores, is kept only as `rawArgs` (the tool then gets an
 * invalid-arguments error).
 */
function parseToolArgs(text: string): { args: JsonObject; rawArgs?: string } {
  if (text.trim() === "") return { args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value) && !nestsDeeperThan(value))
      return { args: value as JsonObject };
  } catch {
    // fall through: keep the text so nothing is lost
  }
  return { args: {}, rawArgs: text };
}

/** A provider block as stored: one nested deeper than Wisp stores is replaced by a note saying so. */
function storableBlock(block: JsonObject): JsonObject {
  return nestsDeeperThan(block) ? { type: "omitted", reason: "nested too deeply to store" } : block;
}

/** Accumulates one assistant message and emits its events. */
export class MessageBuilder {
  readonly message: AssistantMessage;
  /** True once any content event was emitted: from then on a failure is not silently retried. */
  hasOutput = false;
  readonly #open = new Map<string, OpenPart>();
  readonly #emit: (event: TurnEvent) => void;
  readonly #price: ModelPrice | undefined;

  constructor(provider: ProviderId, model: string, emit: (event: TurnEvent) => void, price?: ModelPrice) {
    this.#emit = emit;
    this.#price = price;
    this.message = {
      id: randomId(),
      role: "assistant",
      content: [],
      timestamp: Date.now(),
      provider,
      model,
      usage: emptyUsage(),
      stopReason: "complete",
    };
  }

  #add(part: AssistantContentPart): number {
    this.message.content.push(part);
    return this.message.content.length - 1;
  }

  #openPart(key: string, kind: OpenPart["kind"], part: AssistantContentPart): OpenPart {
    const open: OpenPart = { index: this.#add(part), kind, streamed: "", deltas: 0 };
    this.#open.set(key, open);
    this.hasOutput = true;
    return open;
  }

  /** True when a part is open under `key`. */
  isOpen(key: string): boolean {
    return this.#open.has(key);
  }

  /**
   * True when no part is open under `key`, or nothing has streamed into it yet: what a provider asks
   * before it fills a part from an event that repeats the whole value (a `.done` event).
   */
  isEmpty(key: string): boolean {
    return (this.#open.get(key)?.streamed ?? "") === "";
  }

  /** The part open under `key` if it is of `kind`; a part of another kind there is closed first. */
  #openOf(key: string, kind: OpenPart["kind"]): OpenPart | undefined {
    const open = this.#open.get(key);
    if (open === undefined || open.kind === kind) return open;
    this.close(key); // a provider reused the key for another kind of block
    return undefined;
  }

  /** Appends text to the text part under `key`, opening it first if needed. */
  text(key: string, delta: string): void {
    let open = this.#openOf(key, "text");
    if (open === undefined) {
      open = this.#openPart(key, "text", { type: "text", text: "" });
      this.#emit({ type: "text-start", index: open.index });
    }
    if (delta === "") return;
    open.streamed += delta;
    open.deltas++;
    this.#emit({ type: "text-delta", index: open.index, delta });
  }

  /** Attaches a citation (kept verbatim) to the text part under `key`. */
  citation(key: string, citation: JsonObject): void {
    const open = this.#open.get(key);
    if (open === undefined) return;
    const part = this.message.content[open.index];
    if (part?.type !== "text" || nestsDeeperThan(citation)) return;
    (part.citations ??= []).push(citation);
  }

  /** Appends reasoning to the thinking part under `key`, opening it first if needed. */
  thinking(key: string, delta: string): void {
    let open = this.#openOf(key, "thinking");
    if (open === undefined) {
      open = this.#openPart(key, "thinking", { type: "thinking", text: "" });
      this.#emit({ type: "thinking-start", index: open.index });
    }
    if (delta === "") return;
    open.streamed += delta;
    open.deltas++;
    this.#emit({ type: "thinking-delta", index: open.index, delta });
  }

  /** Sets the signature of the thinking part under `key` (opening an empty one if needed). */
  signature(key: string, signature: string): void {
    if (!this.#open.has(key)) this.thinking(key, "");
    const open = this.#open.get(key) as OpenPart;
    const part = this.message.content[open.index];
    if (part?.type === "thinking") part.signature = (part.signature ?? "") + signature;
  }

  /** Replaces the opaque signature of the text, thinking or tool-call part under `key`. */
  setSignature(key: string, signature: string): void {
    const open = this.#open.get(key);
    const part = open === undefined ? undefined : this.message.content[open.index];
    if (part?.type === "text" || part?.type === "thinking" || part?.type === "tool_call")
      part.signature = signature;
  }

  /** Opens a tool call under `key`. An empty id is replaced by a generated one. */
  toolCallStart(key: string, id: string, name: string): void {
    this.close(key);
    const callId = id === "" ? `call_${randomId().replaceAll("-", "").slice(0, 24)}` : storableId(id);
    const open = this.#openPart(key, "tool", { type: "tool_call", id: callId, name, args: {} });
    this.#emit({ type: "tool-call-start", index: open.index, id: callId, name });
  }

  /** Appends an argument fragment to the tool call under `key`. */
  toolCallArgs(key: string, delta: string): void {
    const open = this.#open.get(key);
    if (open?.kind !== "tool" || delta === "") return;
    open.streamed += delta;
    open.deltas++;
    this.#emit({ type: "tool-call-delta", index: open.index, delta });
  }

  /** Adds a redacted thinking block, which arrives whole. */
  redactedThinking(data: string): void {
    const part = { type: "redacted_thinking" as const, data };
    const index = this.#add(part);
    this.hasOutput = true;
    this.#emit({ type: "thinking-start", index });
    this.#emit({ type: "thinking-end", index, part });
  }

  /**
   * Adds a provider-specific block kept verbatim (server tool use and results); one nested deeper
   * than Wisp stores is replaced by a note saying so.
   */
  providerPart(block: JsonObject): number {
    const part = { type: "provider" as const, provider: this.message.provider, block: storableBlock(block) };
    const index = this.#add(part);
    this.hasOutput = true;
    this.#emit({ type: "provider-part", index, part });
    return index;
  }

  /**
   * Opens a provider-specific block that is not finished yet (a built-in tool still running) under
   * `key`: it takes its place in the content now, holding `block` as it stands, and its
   * `provider-part` event is emitted when it closes. {@link MessageBuilder.providerBlock} replaces
   * the block as it finishes.
   */
  providerStart(key: string, block: JsonObject): void {
    this.close(key);
    this.#openPart(key, "provider", {
      type: "provider",
      provider: this.message.provider,
      block: storableBlock(block),
    });
  }

  /** Replaces the block of the provider part open under `key` (the block as finished). */
  providerBlock(key: string, block: JsonObject): void {
    const open = this.#open.get(key);
    const part = open === undefined ? undefined : this.message.content[open.index];
    if (part?.type === "provider") part.block = storableBlock(block);
  }

  /** Closes the part under `key`, emitting its end event. Closing an unknown key does nothing. */
  close(key: string): void {
    const open = this.#open.get(key);
    if (open === undefined) return;
    this.#open.delete(key);
    const part = this.message.content[open.index];
    if (part === undefined) return;
    const streamed = open.streamed;
    if ((part.type === "text" || part.type === "thinking") && streamed !== "") {
      part.text += streamed;
      if (part.text.length < open.deltas * FLAT_BELOW_CHARS_PER_DELTA) flatten(part.text);
    }
    if (part.type === "text") {
      this.#emit({ type: "text-end", index: open.index, text: part.text });
    } else if (part.type === "thinking") {
      this.#emit({ type: "thinking-end", index: open.index, part });
    } else if (part.type === "tool_call") {
      const parsed = parseToolArgs(streamed);
      part.args = parsed.args;
      if (parsed.rawArgs !== undefined) part.rawArgs = parsed.rawArgs;
      this.#emit({ type: "tool-call", index: open.index, toolCall: part });
    } else if (part.type === "provider") {
      this.#emit({ type: "provider-part", index: open.index, part });
    }
  }

  /** Closes every open part, in content order. */
  closeAll(): void {
    const keys = [...this.#open.entries()].sort((a, b) => a[1].index - b[1].index).map(([key]) => key);
    for (const key of keys) this.close(key);
  }

  /** Replaces the usage (providers report cumulative figures), bounded to what Wisp stores, and emits it. */
  setUsage(usage: Usage): void {
    const stored = storableUsage(usage);
    this.message.usage = stored;
    this.#emit({ type: "usage", usage: stored });
  }

  /** Records the stop reason, unified and raw. */
  setStop(stopReason: StopReason, raw: string | undefined, stopSequence?: string): void {
    this.message.stopReason = stopReason;
    if (raw !== undefined) this.message.rawStopReason = raw;
    if (stopSequence !== undefined) this.message.stopSequence = stopSequence;
  }

  /** The tool calls completed so far. */
  toolCalls(): ToolCallPart[] {
    return this.message.content.filter((part): part is ToolCallPart => part.type === "tool_call");
  }

  #settle(): void {
    this.closeAll();
    const usage = this.message.usage;
    if (usage.costUsd === undefined && this.#price !== undefined) {
      const cost = costOf(usage, this.#price);
      if (Number.isFinite(cost)) usage.costUsd = cost;
    }
  }

  /** Ends the turn successfully and emits `turn-end`. */
  finish(): AssistantMessage {
    this.#settle();
    this.#emit({ type: "turn-end", message: this.message });
    return this.message;
  }

  /** Ends the turn with `error`, keeping the partial content, and emits the final `error` event. */
  fail(error: AnySdkError): AssistantMessage {
    this.#settle();
    this.message.stopReason = error.code === "ABORTED" ? "aborted" : "error";
    this.message.error = error.toJSON();
    this.#emit({ type: "error", error, message: this.message });
    return this.message;
  }
}
