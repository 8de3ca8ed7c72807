/**
 * A stream event as the scripted model sends it, and its SSE framing.
 *
 * @module
 */

import { randomId as uuid } from "../message/random-id.ts";

/** One SSE event: an optional `event:` name and its `data:` text. */
export interface WireEvent {
  /** The SSE `event:` name (Anthropic and OpenAI Responses send one); none when absent. */
  event?: string;
  /** The SSE `data:` text, usually JSON. */
  data: string;
}

/** The SSE bytes of one event, as the providers frame them (`\n` line endings). */
export function frameEvent(event: WireEvent): string {
  return event.event === undefined
    ? `data: ${event.data}\n\n`
    : `event: ${event.event}\ndata: ${event.data}\n\n`;
}

/** Splits text into word-sized pieces, the way models stream it. */
export function toPieces(text: string | string[]): string[] {
  if (Array.isArray(text)) return text;
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** The argument fragments of a scripted tool call: its own chunks, or its JSON cut into pieces. */
export function argumentFragments(call: { args: unknown; chunks?: string[] }): string[] {
  if (call.chunks !== undefined) return call.chunks;
  const json = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
  // A tool without arguments streams no fragment at all (Anthropic sends only its empty first delta).
  return json === "{}" ? [] : toFragments(json);
}

/** Splits a JSON string into fragments, cutting inside strings as providers do. */
function toFragments(json: string, size = 12): string[] {
  const fragments: string[] = [];
  for (let i = 0; i < json.length; i += size) fragments.push(json.slice(i, i + size));
  return fragments;
}

/** A short random id with a prefix (`msg_…`, `toolu_…`). */
export function randomId(prefix: string, length = 24): string {
  return prefix + uuid().replaceAll("-", "").slice(0, length);
}

/** Token estimate for scripted usage: about four characters a token. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
