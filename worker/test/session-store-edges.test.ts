/**
 * Listing a client's sessions (worker/session-store.ts): newest first, at most 100, read across KV's
 * pages by cursor and from at most ten of them; and the configured size cap, which must be positive.
 */
import { describe, expect, it } from "vitest";
import { listSessions, MAX_SESSION_CHARS, sessionCharLimit } from "../session-store.ts";
import type { SessionSummary } from "../session-summary.ts";

function summary(sessionId: string, updatedAt: number): SessionSummary {
  return {
    sessionId,
    title: "",
    status: "idle",
    messageCount: 0,
    usage: { input: 0, output: 0 },
    createdAt: 0,
    updatedAt,
  };
}

/** A KV namespace whose listing has the given pages, found by cursor `page-<n>`; only `list` is used. */
function pagedKv(pages: SessionSummary[][]): KVNamespace {
  const list = async (options: KVNamespaceListOptions) => {
    const index = options.cursor ? Number(options.cursor.slice("page-".length)) : 0;
    const keys = (pages[index] ?? []).map((metadata) => ({ name: `list:c:${metadata.sessionId}`, metadata }));
    return index + 1 < pages.length
      ? { keys, list_complete: false, cursor: `page-${index + 1}`, cacheStatus: null }
      : { keys, list_complete: true, cacheStatus: null };
  };
  return { list } as unknown as KVNamespace;
}

describe("listSessions", () => {
  it("gives the sessions newest first", async () => {
    const kv = pagedKv([
      [summary("a", 1), summary("b", 3), summary("c", 2), summary("d", 5), summary("e", 4)],
    ]);
    expect((await listSessions(kv, "c")).map((s) => s.sessionId)).toEqual(["d", "e", "b", "c", "a"]);
  });

  it("gives at most the newest 100", async () => {
    const kv = pagedKv([Array.from({ length: 150 }, (_, index) => summary(`s${index}`, index))]);
    const listed = await listSessions(kv, "c");
    expect(listed).toHaveLength(100);
    expect(listed[0]?.sessionId).toBe("s149");
    expect(listed[99]?.sessionId).toBe("s50");
  });

  it("follows the cursor to later pages", async () => {
    const kv = pagedKv([[summary("first", 1)], [summary("second", 2)]]);
    expect((await listSessions(kv, "c")).map((s) => s.sessionId)).toEqual(["second", "first"]);
  });

  it("reads no more than ten pages", async () => {
    const pages = Array.from({ length: 12 }, (_, index) => [summary(`p${index}`, index)]);
    const listed = await listSessions(pagedKv(pages), "c");
    expect(listed.map((s) => s.sessionId)).toEqual([
      "p9",
      "p8",
      "p7",
      "p6",
      "p5",
      "p4",
      "p3",
      "p2",
      "p1",
      "p0",
    ]);
  });
});

describe("sessionCharLimit", () => {
  it("ignores a configured limit of zero", () => {
    expect(sessionCharLimit("0")).toBe(MAX_SESSION_CHARS);
    expect(sessionCharLimit("1")).toBe(1);
  });
});
