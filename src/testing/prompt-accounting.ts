/**
 * The scripted model's prompt accounting (opt-in, `createScriptedModel({ promptCache: true })`): each
 * request's prompt tokens are estimated from its text, and cached prefixes are counted the way each
 * provider documents its caching —
 * - Anthropic caches only what a request marks: a marked prefix (of at least 1,024 tokens; 2,048 for
 *   Haiku, 4,096 for Haiku 4.5) is written at its mark (blocks are keyed without their marks); a later request reads the longest written prefix that ends at or
 *   up to 20 blocks before one of its own marks; the tokens from there to its last mark are written.
 * - OpenAI caches by itself: a prompt of at least 1,024 tokens reads the longest prefix (by message)
 *   an earlier request under the same `prompt_cache_key` sent, in steps of 128 tokens.
 * - Gemini's implicit caching is not modelled (no cache figures).
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";
import { estimateTokens } from "./wire-event.ts";

/** What the accounting says a request's prompt cost. */
export interface PromptTokens {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One unit of a prompt, in order: its text and whether it carries a cache mark. */
interface Unit {
  text: string;
  marked: boolean;
}

/** A 53-bit hash of `text` continuing `seed` (cyrb53), so each prefix has a short key. */
function hashOn(seed: number, text: string): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const asArray = (value: JsonValue | undefined): JsonValue[] => (Array.isArray(value) ? value : []);

/** Anthropic's prompt in cache order: tools, system, then each message's blocks. */
function anthropicUnits(body: JsonObject): Unit[] {
  // A block is keyed without its mark: the API does not key on where the marks are.
  const unit = (value: JsonValue): Unit => {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !("cache_control" in value))
      return { text: JSON.stringify(value), marked: false };
    const { cache_control: _, ...block } = value;
    return { text: JSON.stringify(block), marked: true };
  };
  const units = asArray(body.tools).map(unit);
  if (typeof body.system === "string") units.push({ text: body.system, marked: false });
  else units.push(...asArray(body.system).map(unit));
  for (const message of asArray(body.messages)) {
    const content = (message as JsonObject).content;
    if (typeof content === "string") units.push({ text: content, marked: false });
    else units.push(...asArray(content).map(unit));
  }
  return units;
}

/** OpenAI's prompt by message: instructions, tools, then each message or input item. */
function openAIUnits(body: JsonObject): Unit[] {
  const units: Unit[] = [];
  if (body.instructions !== undefined) units.push({ text: JSON.stringify(body.instructions), marked: false });
  if (body.tools !== undefined) units.push({ text: JSON.stringify(body.tools), marked: false });
  for (const item of [...asArray(body.messages), ...asArray(body.input)])
    units.push({ text: JSON.stringify(item), marked: false });
  return units;
}

/** Each prefix's key and cumulative tokens. */
function prefixes(units: Unit[]): { key: number; tokens: number; marked: boolean }[] {
  let key = 0;
  let tokens = 0;
  return units.map((unit) => {
    key = hashOn(key, unit.text);
    tokens += estimateTokens(unit.text);
    return { key, tokens, marked: unit.marked };
  });
}

/** How far back from a mark Anthropic looks for a written prefix. */
const LOOKBACK = 20;

/** A model's cache, kept across its requests. */
export class PromptAccounting {
  readonly #written = new Set<number>();
  readonly #seen = new Map<string, Set<number>>();

  /** The prompt tokens of a request to `provider`. */
  account(provider: string, body: JsonObject): PromptTokens {
    if (provider === "anthropic") return this.#anthropic(body);
    const all = prefixes(openAIUnits(body));
    const total = all.at(-1)?.tokens ?? 0;
    if (provider === "google") return { input: total, cacheRead: 0, cacheWrite: 0 };
    const key = typeof body.prompt_cache_key === "string" ? body.prompt_cache_key : "";
    const seen = this.#seen.get(key) ?? new Set<number>();
    this.#seen.set(key, seen);
    let read = 0;
    if (total >= 1024)
      for (const prefix of all) if (seen.has(prefix.key) && prefix.tokens >= 1024) read = prefix.tokens;
    for (const prefix of all) seen.add(prefix.key);
    const cacheRead = Math.floor(read / 128) * 128;
    return { input: total - cacheRead, cacheRead, cacheWrite: 0 };
  }

  #anthropic(body: JsonObject): PromptTokens {
    const all = prefixes(anthropicUnits(body));
    const total = all.at(-1)?.tokens ?? 0;
    const name = String(body.model ?? "");
    const minimum = /haiku-4[-.]5/.test(name) ? 4096 : name.includes("haiku") ? 2048 : 1024;
    const marks = all.flatMap((prefix, index) => (prefix.marked ? [index] : []));
    let read = -1;
    for (const mark of marks)
      for (let index = Math.max(0, mark - LOOKBACK); index <= mark; index++)
        if (this.#written.has((all[index] as { key: number }).key) && index > read) read = index;
    const cacheRead = read === -1 ? 0 : (all[read] as { tokens: number }).tokens;
    let cacheWrite = 0;
    const last = marks.at(-1);
    if (last !== undefined && last > read && (all[last] as { tokens: number }).tokens >= minimum)
      cacheWrite = (all[last] as { tokens: number }).tokens - cacheRead;
    for (const mark of marks) {
      const prefix = all[mark] as { key: number; tokens: number };
      if (prefix.tokens >= minimum) this.#written.add(prefix.key);
    }
    return { input: total - cacheRead - cacheWrite, cacheRead, cacheWrite };
  }
}
