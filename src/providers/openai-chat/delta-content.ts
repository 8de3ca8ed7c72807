/**
 * The forms of a Chat Completions delta beyond OpenAI's plain strings, as compatible servers send them:
 *
 * - `content` as an array of chunks (Mistral: `[{type:"thinking", thinking:[{type:"text", text}]},
 *   {type:"text", text}]`), read in order as reasoning and text; a chunk of any other type is kept
 *   whole, never dropped;
 * - reasoning only in `reasoning_details[]` (Snowflake Cortex: `{type:"reasoning.text", text}`, no
 *   `reasoning` string beside it; OpenRouter sends both, the same text twice).
 *
 * @module
 */

import type { JsonObject } from "../../types.ts";
import { type EventData, stringAt } from "../parse-event-data.ts";

/** Where the pieces of a content array go. */
export interface ContentSink {
  text(text: string): void;
  thinking(text: string): void;
  /** A chunk of a type Wisp does not read, kept verbatim. */
  other(chunk: JsonObject): void;
}

const objects = (value: unknown): EventData[] =>
  Array.isArray(value)
    ? value.filter((entry): entry is EventData => typeof entry === "object" && entry !== null)
    : [];

/** The text of a Mistral thinking chunk: its `thinking` string, or the text chunks it holds. */
function thinkingText(chunk: EventData): string {
  const thinking = chunk.thinking;
  if (typeof thinking === "string") return thinking;
  return objects(thinking)
    .map((inner) => stringAt(inner, "text") ?? "")
    .join("");
}

/** Reads a `content` array chunk by chunk, in order, into `sink`. */
export function readContentChunks(chunks: unknown[], sink: ContentSink): void {
  for (const chunk of objects(chunks)) {
    const type = stringAt(chunk, "type");
    if (type === "text") {
      const text = stringAt(chunk, "text");
      if (text) sink.text(text);
    } else if (type === "thinking") {
      const text = thinkingText(chunk);
      if (text) sink.thinking(text);
    } else sink.other(chunk as JsonObject);
  }
}

/**
 * The reasoning text of `reasoning_details` entries (`reasoning.text`'s `text`, `reasoning.summary`'s
 * `summary`), for a delta that has no `reasoning` or `reasoning_content` string of its own.
 */
export function reasoningDetailsText(details: unknown): string {
  if (!Array.isArray(details)) return "";
  let text = "";
  for (const detail of objects(details)) {
    const type = stringAt(detail, "type");
    if (type === "reasoning.text") text += stringAt(detail, "text") ?? "";
    else if (type === "reasoning.summary") text += stringAt(detail, "summary") ?? "";
  }
  return text;
}
