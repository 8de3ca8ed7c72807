/**
 * The corpus of streams recorded by other projects (../shared/fixtures/streams-in-the-wild, its
 * SOURCES.md names every origin, commit and licence): each `.sse` is the HTTP body an API sent, each
 * `.expect.json` what the recording holds, derived from the recording and its source's own
 * assertions, never from Wisp. This module lists the corpus and reads a replayed message back into the
 * expectation's own shape, so a test compares the two whole.
 *
 * What each field of an expectation asks of the message:
 *
 * - `responseId`, `rawStop`, `stop`: the message's `responseId`, `rawStopReason`, `stopReason` (absent
 *   means absent: no id, no raw stop reason);
 * - `text`: the text parts joined; `reasoning`: whether there is any reasoning (`present`), its text
 *   (the thinking parts joined), whether it is `signed` (a thinking part with a signature), how
 *   many blocks were `redacted` (redacted thinking parts), whether it is `encrypted` (a kept
 *   reasoning item with `encrypted_content`);
 * - `toolCalls`: the tool calls in order (`id` where the expectation names one);
 * - `serverBlocks`: the typed provider blocks (Anthropic's content blocks, the Responses' items) in
 *   order, by type (a `*_tool_use` block with its tool's name), and `serverBlockHashes` their
 *   SHA-256 (of the JSON with keys sorted, as kept). Gemini's built-in parts, kept whole as they
 *   came (`toolCall`, `executableCode`: no `type`), are not among them: the corpus checks them by
 *   their `signatures`;
 * - `usage`: the counts it names; `citations`: how many citations the text parts carry;
 * - `opaque` and `signatures`: opaque provider data (signatures, encrypted reasoning) the message must
 *   keep to send back — `opaque` anywhere in it, `signatures` as the signatures it holds, in order;
 * - `error.providerError`: the turn ends with that provider error: its message, and its code (a
 *   number is an HTTP status, read as the error's `status`; a string its `providerCode`);
 * - `truncate`: the body cut at `atByte` ends the turn as truncated, keeping the text (and
 *   reasoning) of the events complete before the cut.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  ProviderId,
  StopReason,
  Usage,
} from "../../src/index.ts";
import { FIXTURES } from "./fixtures.ts";

/** The folder of the corpus. */
export const WILD = `${FIXTURES}streams-in-the-wild/`;

/** What a recording's `.expect.json` says (the fields checked; the rest describes where it came from). */
export interface WildExpectation {
  api: ProviderId;
  /** The model string to replay with (`provider/model`). */
  model: string;
  derivedFrom: string;
  responseId?: string;
  text: string;
  reasoning: { present: boolean; text?: string; signed?: boolean; redacted?: number; encrypted?: boolean };
  toolCalls: { id?: string; name: string; args: JsonObject }[];
  serverBlocks: string[];
  serverBlockHashes?: string[];
  usage: Partial<Usage>;
  rawStop?: string;
  stop: StopReason;
  opaque?: string[];
  signatures?: string[];
  citations?: number;
  error?: { providerError: { code?: string | number; type?: string; message?: string } };
  truncate?: { atByte: number; text: string; reasoning?: string; derivedFrom: string };
  notes: string[];
}

/** One recorded stream of the corpus. */
export interface WildStream {
  /** `api/name`, as the corpus lists it. */
  name: string;
  bytes: Uint8Array;
  expected: WildExpectation;
}

/** Every recorded stream of the corpus, by API and name. */
export function wildStreams(): WildStream[] {
  const streams: WildStream[] = [];
  for (const api of ["anthropic", "openai-chat", "openai-responses", "google"]) {
    for (const file of readdirSync(WILD + api).sort()) {
      if (!file.endsWith(".expect.json")) continue;
      const stem = `${api}/${file.slice(0, -".expect.json".length)}`;
      streams.push({
        name: stem,
        bytes: new Uint8Array(readFileSync(`${WILD + stem}.sse`)),
        expected: JSON.parse(readFileSync(WILD + stem + ".expect.json", "utf8")) as WildExpectation,
      });
    }
  }
  return streams;
}

/** JSON with its object keys sorted, so the same block always gives the same text. */
function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** The SHA-256 (hex) of a provider block as kept. */
export function blockHash(block: JsonObject): string {
  return createHash("sha256").update(canonicalJson(block)).digest("hex");
}

/** A provider block by its type, a tool-use block with its tool's name (`server_tool_use:web_search`). */
function blockName(block: JsonObject): string {
  const type = String(block.type);
  return type.endsWith("_tool_use") && typeof block.name === "string" ? `${type}:${block.name}` : type;
}

/** Every string the message keeps (signatures, redacted data, provider blocks, reasoning items). */
function keptStrings(message: AssistantMessage): Set<string> {
  const kept = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") kept.add(value);
    else if (typeof value === "object" && value !== null)
      for (const child of Object.values(value)) walk(child);
  };
  for (const part of message.content) {
    if (part.type === "provider") walk(part.block);
    if (part.type === "redacted_thinking") kept.add(part.data);
    if ("signature" in part && part.signature !== undefined) {
      kept.add(part.signature);
      if (part.signature.startsWith("{")) walk(JSON.parse(part.signature));
    }
  }
  return kept;
}

/** The signatures the message holds, in content order: on its parts, and on Gemini parts kept whole. */
function signaturesOf(message: AssistantMessage): string[] {
  return message.content.flatMap((part) => {
    if (part.type === "provider" && typeof part.block.thoughtSignature === "string")
      return [part.block.thoughtSignature];
    return "signature" in part && part.signature !== undefined ? [part.signature] : [];
  });
}

/** Whether a thinking part keeps a Responses reasoning item with its encrypted content. */
function keepsEncryptedReasoning(message: AssistantMessage): boolean {
  return message.content.some((part) => {
    if (part.type !== "thinking" || !part.signature?.startsWith("{")) return false;
    const item = JSON.parse(part.signature) as JsonObject;
    return typeof item.encrypted_content === "string" && item.encrypted_content !== "";
  });
}

const joined = (message: AssistantMessage, type: "text" | "thinking"): string =>
  message.content.map((part) => (part.type === type ? part.text : "")).join("");

type StatedError = NonNullable<WildExpectation["error"]>["providerError"];

/** A provider error as the corpus states it: a numeric code is an HTTP status, a string one (or else the type) the provider's own code. */
function statedError(wanted: StatedError) {
  return typeof wanted.code === "number"
    ? { status: wanted.code, message: wanted.message }
    : { providerCode: wanted.code ?? wanted.type, message: wanted.message };
}

/** The error `message` carries, in the terms {@link statedError} gives `wanted`. */
function carriedError(message: AssistantMessage, wanted: StatedError) {
  const error = message.error;
  return typeof wanted.code === "number"
    ? { status: error?.status, message: error?.message }
    : { providerCode: error?.providerCode, message: error?.message };
}

/** The reasoning of `message` as an expectation states it (only the fields it states). */
function reasoningOf(message: AssistantMessage, expected: WildExpectation["reasoning"]) {
  const thinking = message.content.filter((part) => part.type === "thinking");
  const observed: Record<string, unknown> = {
    present: message.content.some((part) => part.type === "thinking" || part.type === "redacted_thinking"),
  };
  if (expected.text !== undefined) observed.text = joined(message, "thinking");
  if (expected.signed !== undefined) observed.signed = thinking.some((part) => part.signature !== undefined);
  if (expected.redacted !== undefined)
    observed.redacted = message.content.filter((part) => part.type === "redacted_thinking").length;
  if (expected.encrypted !== undefined) observed.encrypted = keepsEncryptedReasoning(message);
  return observed;
}

/**
 * `message` read back into the shape of `expected`, field by field as the module comment says, so
 * `observe(message, expected)` equals {@link checkedFields}`(expected)` exactly when the replay
 * kept everything the recording holds.
 */
export function observe(message: AssistantMessage, expected: WildExpectation): Record<string, unknown> {
  const provider = message.content.flatMap((part) =>
    part.type === "provider" && typeof part.block.type === "string" ? [part.block] : [],
  );
  const observed: Record<string, unknown> = {
    responseId: message.responseId,
    text: joined(message, "text"),
    reasoning: reasoningOf(message, expected.reasoning),
    toolCalls: message.content
      .filter((part) => part.type === "tool_call")
      .map(({ id, name, args }, position) =>
        expected.toolCalls[position]?.id === undefined ? { name, args } : { id, name, args },
      ),
    serverBlocks: provider.map(blockName),
    usage: Object.fromEntries(
      Object.keys(expected.usage).map((key) => [key, message.usage[key as keyof Usage]]),
    ),
    rawStop: message.rawStopReason,
    stop: message.stopReason,
  };
  if (expected.serverBlockHashes !== undefined) observed.serverBlockHashes = provider.map(blockHash);
  const kept = keptStrings(message);
  if (expected.opaque !== undefined) observed.opaque = expected.opaque.filter((value) => kept.has(value));
  if (expected.signatures !== undefined) observed.signatures = signaturesOf(message);
  if (expected.citations !== undefined)
    observed.citations = message.content.reduce(
      (sum, part) => sum + (part.type === "text" ? (part.citations?.length ?? 0) : 0),
      0,
    );
  if (expected.error !== undefined) observed.error = carriedError(message, expected.error.providerError);
  return observed;
}

/** The fields of `expected` that {@link observe} reads, in the same shape. */
export function checkedFields(expected: WildExpectation): Record<string, unknown> {
  const checked: Record<string, unknown> = {
    responseId: expected.responseId,
    text: expected.text,
    reasoning: expected.reasoning,
    toolCalls: expected.toolCalls,
    serverBlocks: expected.serverBlocks,
    usage: expected.usage,
    rawStop: expected.rawStop,
    stop: expected.stop,
  };
  for (const key of ["serverBlockHashes", "opaque", "signatures", "citations"] as const)
    if (expected[key] !== undefined) checked[key] = expected[key];
  if (expected.error !== undefined) checked.error = statedError(expected.error.providerError);
  return checked;
}
