/**
 * The session's copy in KV (worker/session-copy.ts), against the real KV binding: a copy reads back
 * whole across pages and parts; a write puts exactly the keys its index names and reports the bytes
 * it put; a later write rewrites only the pages from `copied` on (and the metadata only when its
 * version changed); a copy of rows that shrank reads back the rows' count; a missing part is an error
 * naming it; and deleting a copy removes every key, past one page of KV's listing.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deleteCopy, readCopy, writeCopy } from "../session-copy.ts";
import type { SessionRows } from "../session-rows.ts";

/** A message as the rows hold it (readCopy only parses the JSON). */
const message = (at: number, text = `message ${at}`) => ({
  id: `m${at}`,
  role: "user",
  content: [{ type: "text", text }],
});

type Message = ReturnType<typeof message>;

const HEAD = { version: 1, sessionId: "copied" };

/** Rows holding `messages` and the metadata in `metadataParts` (only what writeCopy reads). */
function rowsOf(
  messages: Message[],
  metadataParts: string[] = ['{"k":1}'],
  metadataVersion = 1,
): SessionRows {
  const head = JSON.stringify(HEAD);
  return {
    head: () => ({ head, messageCount: messages.length, metadataVersion }),
    headJson: () => head,
    messageTexts: (from: number, limit: number) =>
      messages.slice(from, from + limit).map((each) => JSON.stringify(each)),
    metadataParts: () => metadataParts,
  } as unknown as SessionRows;
}

const conversation = (count: number): Message[] => Array.from({ length: count }, (_, at) => message(at));

/** The KV binding, recording the keys put and the bytes of each value. */
function recordingKv(): { kv: KVNamespace; puts: Map<string, number> } {
  const puts = new Map<string, number>();
  const kv = new Proxy(env.SESSIONS, {
    get(target, name) {
      if (name === "put") {
        return (key: string, value: string | Uint8Array) => {
          puts.set(key, typeof value === "string" ? value.length : value.byteLength);
          return target.put(key, value);
        };
      }
      const member = Reflect.get(target, name) as unknown;
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
  return { kv, puts };
}

async function keysOf(sessionId: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await env.SESSIONS.list({ prefix: `copy:${sessionId}`, ...(cursor ? { cursor } : {}) });
    names.push(...listed.keys.map((key) => key.name));
    cursor = listed.list_complete ? undefined : listed.cursor;
  } while (cursor !== undefined);
  return names.sort();
}

/** The keys a copy's index names: its own, each page's parts and the metadata's. */
async function keysNamedByIndex(sessionId: string): Promise<string[]> {
  const index = (await env.SESSIONS.get(`copy:${sessionId}`, "json")) as {
    pages: number[];
    metadata: { parts: number };
  };
  const parts = (page: number | "meta", count: number) =>
    Array.from({ length: count }, (_, part) => `copy:${sessionId}:${page}:${part}`);
  return [
    `copy:${sessionId}`,
    ...index.pages.flatMap((count, page) => parts(page, count)),
    ...parts("meta", index.metadata.parts),
  ].sort();
}

describe("writeCopy and readCopy", () => {
  it("read back the whole session across pages, parts of a page and parts of the metadata", async () => {
    const messages = conversation(300);
    await writeCopy(env.SESSIONS, "copy-parts", rowsOf(messages, ['{"a":', '1,"b":"two"}']), 0, 100);
    expect(
      (await keysOf("copy-parts")).filter((key) => key.startsWith("copy:copy-parts:0:")).length,
    ).toBeGreaterThan(1);
    expect(await readCopy(env.SESSIONS, "copy-parts")).toEqual({
      ...HEAD,
      metadata: { a: 1, b: "two" },
      messages,
    });
  });

  it("put exactly the keys the index names, and report the bytes put", async () => {
    const { kv, puts } = recordingKv();
    const written = await writeCopy(kv, "copy-keys", rowsOf(conversation(256)), 0, 100);
    expect(await keysOf("copy-keys")).toEqual(await keysNamedByIndex("copy-keys"));
    expect([...puts.keys()].sort()).toEqual(await keysOf("copy-keys"));
    expect(written).toEqual({ messageCount: 256, bytes: [...puts.values()].reduce((sum, n) => sum + n, 0) });
  });

  it("a later write rewrites the pages from `copied` on and the index, not the metadata of the same version", async () => {
    const before = conversation(300);
    await writeCopy(env.SESSIONS, "copy-later", rowsOf(before), 0);
    const { kv, puts } = recordingKv();
    const after = [...before, ...conversation(310).slice(300)];
    const written = await writeCopy(kv, "copy-later", rowsOf(after), 300);
    expect([...puts.keys()].sort()).toEqual(["copy:copy-later", "copy:copy-later:1:0"]);
    expect(written.bytes).toBe([...puts.values()].reduce((sum, n) => sum + n, 0));
    expect(await readCopy(env.SESSIONS, "copy-later")).toEqual({
      ...HEAD,
      metadata: { k: 1 },
      messages: after,
    });
  });

  it("rewrites the metadata when its version changed", async () => {
    await writeCopy(env.SESSIONS, "copy-meta", rowsOf(conversation(3)), 0);
    const { kv, puts } = recordingKv();
    await writeCopy(kv, "copy-meta", rowsOf(conversation(3), ['{"k":2}'], 2), 3);
    expect(puts.has("copy:copy-meta:meta:0")).toBe(true);
    expect((await readCopy(env.SESSIONS, "copy-meta"))?.metadata).toEqual({ k: 2 });
  });

  it("rewrites from an earlier message than the copy holds (a fork), keeping the pages before it", async () => {
    const before = conversation(300);
    await writeCopy(env.SESSIONS, "copy-fork", rowsOf(before), 0);
    const forked = before.map((each, at) => (at >= 10 ? message(at, `forked ${at}`) : each));
    await writeCopy(env.SESSIONS, "copy-fork", rowsOf(forked), 10);
    expect((await readCopy(env.SESSIONS, "copy-fork"))?.messages).toEqual(forked);
  });

  it("reads back the rows' count when the rows shrank within the pages kept", async () => {
    const before = conversation(300);
    await writeCopy(env.SESSIONS, "copy-shrunk", rowsOf(before), 0);
    // The first 256 messages are unchanged, so no page is rewritten; the rows now hold 200.
    await writeCopy(env.SESSIONS, "copy-shrunk", rowsOf(before.slice(0, 200)), 256);
    expect((await readCopy(env.SESSIONS, "copy-shrunk"))?.messages).toEqual(before.slice(0, 200));
  });

  it("reads empty metadata as {}", async () => {
    await writeCopy(env.SESSIONS, "copy-no-meta", rowsOf(conversation(2), []), 0);
    expect((await readCopy(env.SESSIONS, "copy-no-meta"))?.metadata).toEqual({});
  });

  it("fails naming the part a copy lacks", async () => {
    await writeCopy(env.SESSIONS, "copy-lacking", rowsOf(conversation(40)), 0, 100);
    await env.SESSIONS.delete("copy:copy-lacking:0:1");
    await expect(readCopy(env.SESSIONS, "copy-lacking")).rejects.toThrow(
      "the KV copy of session copy-lacking lacks 0:1",
    );
  });
});

describe("deleteCopy", () => {
  it("removes every key of the copy, past one page of KV's listing (1,000 keys)", async () => {
    await writeCopy(env.SESSIONS, "copy-gone", rowsOf(conversation(3)), 0);
    await Promise.all(
      Array.from({ length: 1001 }, (_, at) => env.SESSIONS.put(`copy:copy-gone:stray:${at}`, "x")),
    );
    await env.SESSIONS.put("copy:copy-kept", "another session's");
    await deleteCopy(env.SESSIONS, "copy-gone");
    expect(await keysOf("copy-gone")).toEqual([]);
    expect(await env.SESSIONS.get("copy:copy-kept")).toBe("another session's");
  });
});
