/**
 * OpenAI's prompt-caching fields, shared by Chat Completions and Responses. OpenAI caches long
 * prefixes by itself; `prompt_cache_key` routes a session's requests to the same cache and
 * `prompt_cache_retention` keeps entries longer.
 *
 * @module
 */

import type { JsonObject, PromptCache } from "../types.ts";

/** Adds the caching fields of `cache` to `body` (none when caching is off). */
export function addOpenAICache(body: JsonObject, cache: PromptCache | false | undefined): void {
  if (!cache) return;
  if (cache.key !== undefined) body.prompt_cache_key = cache.key;
  if (cache.retention !== undefined) body.prompt_cache_retention = cache.retention;
}
