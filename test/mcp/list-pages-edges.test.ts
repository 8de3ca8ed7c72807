/**
 * Paged MCP lists (src/mcp/list-pages.ts) against a scripted client: an empty `nextCursor` ends the
 * list, and a page without the list's key adds no entries.
 */
import { describe, expect, it } from "vitest";
import { listPages } from "../../src/mcp/list-pages.ts";
import type { McpClient } from "../../src/mcp/mcp-client.ts";
import type { JsonObject, JsonValue } from "../../src/types.ts";

/** A client answering its requests with `pages` in turn (then `{}`), recording each request's params. */
function scripted(pages: JsonObject[]): { client: McpClient; asked: Array<JsonObject | undefined> } {
  const asked: Array<JsonObject | undefined> = [];
  const client = {
    request: async (_method: string, params: JsonObject | undefined) => {
      asked.push(params);
      return pages[asked.length - 1] ?? {};
    },
  } as unknown as McpClient;
  return { client, asked };
}

const every = (value: JsonValue) => value;

describe("listPages", () => {
  it("stops at an empty nextCursor", async () => {
    const { client, asked } = scripted([{ tools: ["a"], nextCursor: "" }, { tools: ["b"] }]);
    expect(await listPages(client, "tools/list", "tools", every)).toEqual(["a"]);
    expect(asked).toEqual([{}]);
  });

  it("follows a cursor and takes nothing from a page without the list", async () => {
    const { client, asked } = scripted([{ tools: ["a"], nextCursor: "p2" }, { other: ["b"] }]);
    expect(await listPages(client, "tools/list", "tools", every)).toEqual(["a"]);
    expect(asked).toEqual([{}, { cursor: "p2" }]);
  });
});

describe("listPages, given a signal", () => {
  it("hands the signal to each page's request, so an aborted signal ends the listing", async () => {
    const client = {
      request: async (
        _method: string,
        _params: JsonObject | undefined,
        options?: { signal?: AbortSignal },
      ) => {
        options?.signal?.throwIfAborted();
        return { tools: ["a"] };
      },
    } as unknown as McpClient;
    expect(await listPages(client, "tools/list", "tools", every)).toEqual(["a"]);
    const reason = new Error("stop listing");
    await expect(listPages(client, "tools/list", "tools", every, AbortSignal.abort(reason))).rejects.toBe(
      reason,
    );
  });
});
