/**
 * Anthropic's prompt caching: it caches only prefixes a request marks with `cache_control`, at most
 * four marks a request. Wisp marks the last tool, the system prompt and the end of the conversation,
 * and also the end of the previous request (the message before the last reply), so each turn reads
 * the prefix the turn before it wrote even when that turn added many blocks.
 *
 * @module
 */

import type { JsonObject, PromptCache } from "../../types.ts";

/** The blocks that may carry a mark (thinking blocks may not). */
const MARKABLE = new Set(["text", "image", "tool_use", "tool_result", "document", "compaction"]);

/** Marks the breakpoints of `body` (an Anthropic request whose `system` is still a string). */
export function markCacheBreakpoints(body: JsonObject, cache: PromptCache | undefined): void {
  const mark: JsonObject = cache?.ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
  const tools = body.tools as JsonObject[] | undefined;
  if (tools?.length) tools[tools.length - 1] = { ...tools.at(-1), cache_control: mark };
  if (typeof body.system === "string")
    body.system = [{ type: "text", text: body.system, cache_control: mark }];
  const messages = body.messages as { role: string; content: JsonObject[] }[];
  let previous = -1;
  for (let index = messages.length - 1; index > 0 && previous === -1; index--)
    if (messages[index]?.role === "assistant") previous = index - 1;
  for (const index of new Set([previous, messages.length - 1])) {
    const content = messages[index]?.content;
    const block = content?.at(-1);
    // A copy: a kept provider block is sent by reference and must not change.
    if (content && block && MARKABLE.has(String(block.type)))
      content[content.length - 1] = { ...block, cache_control: mark };
  }
}
