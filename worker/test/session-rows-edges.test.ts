/**
 * A session's rows, built directly on a Durable Object's storage (worker/session-rows.ts): what a save
 * returns (the characters of the rows it wrote) and leaves in the head (message count and characters,
 * last message id, metadata version); the tails it refuses (nothing stored and no metadata, a gap
 * after the stored messages, one character over the limit); a save from before the end (a fork, a
 * switch) that marks where the copy must be rewritten; the summary rewritten alone; messages read
 * from the middle; an export that leaves out messages saved after it began; clear leaving no rows.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject, Message, SessionState, StoredBranch } from "wisp-agent";
import { type SavedTail, SessionRows } from "../session-rows.ts";
import type { SessionSummary } from "../session-summary.ts";
import { createSession } from "./api.ts";
import { conversation, exported } from "./conversations.ts";

/** A real state of the demo (its messages, metadata and branches replaced by each test). */
let base: SessionState;

beforeAll(async () => {
  base = await exported(await createSession());
});

const METADATA: JsonObject = { source: "session-rows-edges", lines: ["one", "two"] };

const SUMMARY: SessionSummary = {
  sessionId: "session-rows-edges",
  title: "",
  status: "idle",
  messageCount: 0,
  usage: { input: 0, output: 0 },
  createdAt: 1,
  updatedAt: 2,
};

/** The tail holding `messages` from `from` on, after `previousId` (with metadata and branches when given). */
function tail(
  messages: Message[],
  from: number,
  options: { previousId?: string; metadata?: JsonObject; branches?: StoredBranch[] } = {},
): SavedTail {
  const { messages: _, metadata: __, branches: ___, ...rest } = base;
  return { ...rest, ...options, messagesFrom: from, messageCount: from + messages.length, messages };
}

/** Runs `body` on the storage of a Durable Object of its own, with rows built on it. */
function withRows<T>(body: (rows: SessionRows, storage: DurableObjectStorage) => T | Promise<T>): Promise<T> {
  const stub = env.RUNNER.get(env.RUNNER.idFromName(`session-rows-edges-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_instance, state) => body(new SessionRows(state.storage), state.storage));
}

/** Characters of the JSON in `column` of `table`'s rows (those `where` picks). */
function chars(storage: DurableObjectStorage, table: string, column = "json", where = "1"): number {
  return (
    storage.sql
      .exec<{ chars: number | null }>(`SELECT SUM(LENGTH(${column})) AS chars FROM ${table} WHERE ${where}`)
      .one().chars ?? 0
  );
}

/** Rows left in each table of the session's rows. */
function rowCounts(storage: DurableObjectStorage): Record<string, number> {
  const tables = [
    "session_head",
    "session_messages",
    "session_metadata",
    "session_branches",
    "session_branch_index",
  ];
  return Object.fromEntries(
    tables.map((table) => [
      table,
      storage.sql.exec<{ count: number }>(`SELECT COUNT(*) AS count FROM ${table}`).one().count,
    ]),
  );
}

/** The whole text of a stream. */
async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

const LIMIT = Number.MAX_SAFE_INTEGER;

describe("SessionRows", () => {
  it("a first save returns the characters of every row it wrote and heads the last message", () =>
    withRows((rows, storage) => {
      const messages = conversation(3, 100);
      const branches: StoredBranch[] = [{ parentId: "u0", messages: conversation(2, 50).slice(1) }];
      const outcome = rows.save(
        "digest",
        tail(messages, 0, { metadata: METADATA, branches }),
        SUMMARY,
        LIMIT,
      );
      const written =
        chars(storage, "session_head", "head") +
        chars(storage, "session_head", "summary") +
        chars(storage, "session_messages") +
        chars(storage, "session_metadata") +
        chars(storage, "session_branches");
      expect(outcome).toEqual({ saved: true, chars: written });
      expect(rows.head()).toMatchObject({
        metadataVersion: 1,
        messageCount: 3,
        messageChars: chars(storage, "session_messages"),
        lastId: "u2",
      });
      expect(new SessionRows(storage).head()).toEqual(rows.head());
      expect(rows.takeRewrittenFrom()).toBeUndefined();
      expect(rows.state()).toEqual({ ...base, messages, metadata: METADATA, branches });
    }));

  it("an append returns the characters of the head and the new messages, and keeps the metadata version", () =>
    withRows((rows, storage) => {
      const messages = conversation(5, 100);
      rows.save("digest", tail(messages.slice(0, 3), 0, { metadata: METADATA }), SUMMARY, LIMIT);
      const appended = rows.save("digest", tail(messages.slice(3), 3, { previousId: "u2" }), SUMMARY, LIMIT);
      expect(appended).toEqual({
        saved: true,
        chars:
          chars(storage, "session_head", "head") +
          chars(storage, "session_head", "summary") +
          chars(storage, "session_messages", "json", "seq >= 3"),
      });
      expect(rows.head()).toMatchObject({ metadataVersion: 1, messageCount: 5, lastId: "u4" });
      expect(rows.takeRewrittenFrom()).toBeUndefined();
      const metadata = { ...METADATA, again: true };
      rows.save("digest", tail([], 5, { previousId: "u4", metadata }), SUMMARY, LIMIT);
      expect(new SessionRows(storage).head()).toMatchObject({
        metadataVersion: 2,
        messageCount: 5,
        lastId: "u4",
      });
      expect(rows.state()).toEqual({ ...base, messages, metadata });
    }));

  it("a save from before the end replaces the messages from there and marks the first one replaced", () =>
    withRows((rows, storage) => {
      const messages = conversation(4, 100);
      rows.save("digest", tail(messages, 0, { metadata: METADATA }), SUMMARY, LIMIT);
      const other = conversation(4, 300)
        .slice(3)
        .map((message) => ({ ...message, id: "other" }));
      expect(rows.save("digest", tail(other, 3, { previousId: "u2" }), SUMMARY, LIMIT).saved).toBe(true);
      expect(rows.head()).toMatchObject({ messageCount: 4, lastId: "other" });
      expect(rows.save("digest", tail([], 1, { previousId: "u0" }), SUMMARY, LIMIT).saved).toBe(true);
      expect(rows.head()).toMatchObject({
        messageCount: 1,
        messageChars: chars(storage, "session_messages"),
        lastId: "u0",
      });
      expect(new SessionRows(storage).head()).toEqual(rows.head());
      expect(rows.takeRewrittenFrom()).toBe(1);
      expect(rows.takeRewrittenFrom()).toBeUndefined();
      expect(rows.state()?.messages).toEqual(messages.slice(0, 1));
    }));

  it('an empty conversation is stored with "" as its last message id', () =>
    withRows((rows, storage) => {
      rows.save("digest", tail([], 0, { metadata: METADATA }), SUMMARY, LIMIT);
      expect(rows.head()?.lastId).toBe("");
      expect(new SessionRows(storage).head()?.lastId).toBe("");
    }));

  it("refuses, writing nothing, a first tail without metadata and a tail that starts after a gap", () =>
    withRows((rows, storage) => {
      const messages = conversation(3, 100);
      expect(rows.save("digest", tail(messages, 0), SUMMARY, LIMIT)).toEqual({
        saved: false,
        reason: "NOT_ALIGNED",
        chars: 0,
      });
      expect(rows.save("digest", tail(messages.slice(2), 2, { metadata: METADATA }), SUMMARY, LIMIT)).toEqual(
        {
          saved: false,
          reason: "NOT_ALIGNED",
          chars: 0,
        },
      );
      expect(rows.head()).toBeUndefined();
      expect(new SessionRows(storage).head()).toBeUndefined();
      expect(rowCounts(storage)).toMatchObject({ session_head: 0, session_messages: 0, session_metadata: 0 });
    }));

  it("saves a session of exactly the limit's characters, and refuses one of a character more", async () => {
    const messages = conversation(2, 100);
    const branches: StoredBranch[] = [{ parentId: null, messages: conversation(1, 80) }];
    const whole = tail(messages, 0, { metadata: METADATA, branches });
    // What the session takes: the JSON of its head, messages, metadata and branches, as stored.
    const size = await withRows((rows, storage) => {
      expect(rows.save("digest", whole, SUMMARY, LIMIT).saved).toBe(true);
      return ["session_messages", "session_metadata", "session_branches"].reduce(
        (sum, table) => sum + chars(storage, table),
        chars(storage, "session_head", "head"),
      );
    });
    await withRows((rows, storage) => {
      expect(rows.save("digest", whole, SUMMARY, size - 1)).toEqual({
        saved: false,
        reason: "SESSION_TOO_LARGE",
        chars: 0,
      });
      expect(rowCounts(storage)).toMatchObject({ session_head: 0, session_messages: 0, session_branches: 0 });
      expect(rows.save("digest", whole, SUMMARY, size).saved).toBe(true);
    });
  });

  it("setSummary rewrites the stored summary", () =>
    withRows((rows, storage) => {
      rows.save("digest", tail(conversation(1), 0, { metadata: METADATA }), SUMMARY, LIMIT);
      rows.setSummary({ ...SUMMARY, status: "closed" });
      expect(rows.head()?.summary.status).toBe("closed");
      expect(new SessionRows(storage).head()?.summary).toEqual({ ...SUMMARY, status: "closed" });
    }));

  it("messageTexts reads the messages from the middle of the conversation on", () =>
    withRows((rows) => {
      const messages = conversation(4, 100);
      rows.save("digest", tail(messages, 0, { metadata: METADATA }), SUMMARY, LIMIT);
      expect(rows.messageTexts(1, 2).map((json) => JSON.parse(json))).toEqual(messages.slice(1, 3));
    }));

  it.each([3, 70])("an export of %i messages leaves out the messages saved after it began", (count) =>
    withRows(async (rows) => {
      const messages = conversation(count + 2, 100);
      rows.save("digest", tail(messages.slice(0, count), 0, { metadata: METADATA }), SUMMARY, LIMIT);
      const before = rows.state();
      const stream = rows.exportStream();
      const previousId = messages[count - 1]?.id ?? "";
      const appended = rows.save(
        "digest",
        tail(messages.slice(count), count, { previousId }),
        SUMMARY,
        LIMIT,
      );
      expect(appended.saved).toBe(true);
      expect(stream).toBeDefined();
      if (stream === undefined) return;
      const state = JSON.parse(await text(stream)) as SessionState;
      expect(state.messages).toHaveLength(count);
      expect(state).toEqual(before);
    }),
  );

  it("clear leaves no rows, and the rows read as nothing stored", () =>
    withRows((rows, storage) => {
      const branches: StoredBranch[] = [{ parentId: "u0", messages: conversation(2, 50).slice(1) }];
      rows.save("digest", tail(conversation(3), 0, { metadata: METADATA, branches }), SUMMARY, LIMIT);
      rows.clear();
      expect(rowCounts(storage)).toEqual({
        session_head: 0,
        session_messages: 0,
        session_metadata: 0,
        session_branches: 0,
        session_branch_index: 0,
      });
      expect(rows.head()).toBeUndefined();
      expect(rows.state()).toBeUndefined();
      expect(rows.exportStream()).toBeUndefined();
      expect(new SessionRows(storage).head()).toBeUndefined();
    }));
});
