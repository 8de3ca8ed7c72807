/**
 * The paged lists of MCP (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`):
 * read page by page along `nextCursor`, at most {@link MAX_PAGES} pages, each entry read by the
 * caller (entries it cannot read are dropped).
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";
import type { McpClient } from "./mcp-client.ts";

/** How many pages are read at most (a server that never stops paging is cut off). */
const MAX_PAGES = 100;

/** Every entry of `key` in the pages of `method`, each read by `read` (undefined drops it). */
export async function listPages<T>(
  client: McpClient,
  method: string,
  key: string,
  read: (value: JsonValue) => T | undefined,
  signal?: AbortSignal,
): Promise<T[]> {
  const entries: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result: JsonObject = await client.request(method, cursor === undefined ? {} : { cursor }, {
      signal,
    });
    const list = result[key];
    for (const value of Array.isArray(list) ? list : []) {
      const entry = read(value);
      if (entry !== undefined) entries.push(entry);
    }
    cursor =
      typeof result.nextCursor === "string" && result.nextCursor !== "" ? result.nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return entries;
}
