/**
 * The primary copy of a session: rows in its Durable Object's SQLite storage. One row holds the state
 * without its messages and metadata (the head, a few KB); each message has its own rows; the metadata
 * (which holds an imported transcript's original lines, as large as the transcript) has its own, written
 * by the save that first stores the session (or rewrites it whole), since a session's metadata never changes. So a save
 * after a turn writes the turn's new messages and the head, not the whole conversation
 * (`AgentSession.exportTail`). Export streams the rows back as one SessionState without building it in
 * memory.
 *
 * @module
 */

import {
  type JsonObject,
  joinStateTail,
  type Message,
  type SessionState,
  type SessionStateTail,
} from "wisp-agent";
import { BranchRows } from "./branch-rows.ts";
import type { SessionSummary } from "./session-summary.ts";

/** Characters per stored part of a message (a SQLite value may take 2 MB; a UTF-16 unit is at most 3 bytes of UTF-8). */
const PART_CHARS = 512 * 1024;

/** `text` in parts of at most {@link PART_CHARS} (one part, maybe empty, at least). */
function parts(text: string): string[] {
  const count = Math.max(1, Math.ceil(text.length / PART_CHARS));
  return Array.from({ length: count }, (_, index) =>
    text.slice(index * PART_CHARS, (index + 1) * PART_CHARS),
  );
}

/** Messages read per step of an export. */
const EXPORT_BATCH = 64;

/** A tail to save: with `metadata` when the rows need it written (see {@link SessionRows.save}). */
export type SavedTail = Omit<SessionStateTail, "metadata"> & { metadata?: JsonObject };

/** What the head row holds. */
export interface StoredHead {
  tokenDigest: string;
  /** The state without `messages` and `metadata`, as JSON. */
  head: string;
  /** Characters of the metadata's JSON. */
  metadataChars: number;
  /** Counts the metadata's rewrites, so a copy knows whether it holds the latest. */
  metadataVersion: number;
  messageCount: number;
  /** Characters of all the messages' JSON (with the head's, what the session takes). */
  messageChars: number;
  /** The id of the last stored message ("" when there is none). */
  lastId: string;
  summary: SessionSummary;
}

/** What a save did: whether it wrote, why not, and how many characters it wrote. */
export type RowSave =
  | { saved: true; chars: number }
  | { saved: false; reason: "SESSION_TOO_LARGE" | "NOT_ALIGNED"; chars: 0 };

interface HeadRow extends Record<string, SqlStorageValue> {
  token_digest: string;
  head: string;
  metadata_chars: number;
  metadata_version: number;
  message_count: number;
  message_chars: number;
  last_id: string;
  summary: string;
}

/** The rows of one session, in the storage of the Durable Object that runs it. */
export class SessionRows {
  readonly #storage: DurableObjectStorage;
  #head: StoredHead | undefined | null = null;
  /** A forked session's other branches, in rows of their own (written only when they change). */
  readonly #branches: BranchRows;
  /** The first message a save replaced rather than appended after (a fork, a switch), until taken. */
  #rewrittenFrom: number | undefined;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    const sql = storage.sql;
    sql.exec(
      `CREATE TABLE IF NOT EXISTS session_head (id INTEGER PRIMARY KEY CHECK (id = 1), token_digest TEXT NOT NULL,
        head TEXT NOT NULL, metadata_chars INTEGER NOT NULL, metadata_version INTEGER NOT NULL,
        message_count INTEGER NOT NULL, message_chars INTEGER NOT NULL, last_id TEXT NOT NULL,
        summary TEXT NOT NULL)`,
    );
    sql.exec("CREATE TABLE IF NOT EXISTS session_metadata (part INTEGER PRIMARY KEY, json TEXT NOT NULL)");
    sql.exec(
      `CREATE TABLE IF NOT EXISTS session_messages (seq INTEGER NOT NULL, part INTEGER NOT NULL,
        id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (seq, part))`,
    );
    this.#branches = new BranchRows(sql);
  }

  /** The head row, or undefined when nothing is stored (read once, then kept). */
  head(): StoredHead | undefined {
    if (this.#head !== null) return this.#head;
    const row = this.#storage.sql.exec<HeadRow>("SELECT * FROM session_head WHERE id = 1").toArray()[0];
    this.#head =
      row === undefined
        ? undefined
        : {
            tokenDigest: row.token_digest,
            head: row.head,
            metadataChars: row.metadata_chars,
            metadataVersion: row.metadata_version,
            messageCount: row.message_count,
            messageChars: row.message_chars,
            lastId: row.last_id,
            summary: JSON.parse(row.summary) as SessionSummary,
          };
    return this.#head;
  }

  /**
   * Writes a tail: the messages from `tail.messagesFrom` on replace what is stored from there, the head
   * is rewritten, and so is the metadata when the tail has it (it must, when nothing is stored yet), in
   * one transaction. Refused without writing when the stored messages do not end where the tail begins
   * (`NOT_ALIGNED`: save a whole tail instead, from 0 and with metadata) or when the session would take
   * more than `limit` characters of JSON.
   */
  save(tokenDigest: string, tail: SavedTail, summary: SessionSummary, limit: number): RowSave {
    const stored = this.head();
    const count = stored?.messageCount ?? 0;
    const from = tail.messagesFrom;
    const aligned = from <= count && (from === 0 || this.#idAt(from - 1) === tail.previousId);
    if (!aligned || (stored === undefined && tail.metadata === undefined)) {
      return { saved: false, reason: "NOT_ALIGNED", chars: 0 };
    }
    const {
      messagesFrom: _,
      messageCount: __,
      previousId: ___,
      messages,
      metadata,
      branches,
      ...rest
    } = tail;
    const head = JSON.stringify(rest);
    const branched = this.#branches.changed(branches);
    const branchChars = branched?.json.length ?? this.#branches.index().chars;
    const metadataJson = metadata === undefined ? undefined : JSON.stringify(metadata);
    const metadataChars = metadataJson?.length ?? stored?.metadataChars ?? 0;
    const texts = messages.map((message) => JSON.stringify(message));
    const added = texts.reduce((sum, text) => sum + text.length, 0);
    const kept = from === count ? (stored?.messageChars ?? 0) : this.#charsBefore(from);
    if (kept + added + head.length + metadataChars + branchChars > limit) {
      return { saved: false, reason: "SESSION_TOO_LARGE", chars: 0 };
    }
    const next: StoredHead = {
      tokenDigest,
      head,
      metadataChars,
      metadataVersion: (stored?.metadataVersion ?? 0) + (metadataJson === undefined ? 0 : 1),
      messageCount: from + messages.length,
      messageChars: kept + added,
      lastId: messages.at(-1)?.id ?? (from > 0 ? (tail.previousId ?? "") : ""),
      summary,
    };
    const summaryJson = JSON.stringify(summary);
    this.#storage.transactionSync(() => {
      const sql = this.#storage.sql;
      if (from < count) {
        sql.exec("DELETE FROM session_messages WHERE seq >= ?", from);
        this.#rewrittenFrom = Math.min(this.#rewrittenFrom ?? from, from);
      }
      texts.forEach((text, index) => {
        const id = messages[index]?.id ?? "";
        parts(text).forEach((json, part) => {
          sql.exec("INSERT INTO session_messages VALUES (?, ?, ?, ?)", from + index, part, id, json);
        });
      });
      if (branched !== undefined) this.#branches.write(branched);
      if (metadataJson !== undefined) {
        sql.exec("DELETE FROM session_metadata");
        parts(metadataJson).forEach((json, part) => {
          sql.exec("INSERT INTO session_metadata VALUES (?, ?)", part, json);
        });
      }
      sql.exec(
        "INSERT OR REPLACE INTO session_head VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
        tokenDigest,
        head,
        next.metadataChars,
        next.metadataVersion,
        next.messageCount,
        next.messageChars,
        next.lastId,
        summaryJson,
      );
    });
    this.#head = next;
    const written = head.length + added + summaryJson.length + (metadataJson?.length ?? 0);
    return { saved: true, chars: written + (branched?.json.length ?? 0) };
  }

  /** The stored state without `messages` and `metadata`, as JSON: the head row's, with the branches' rows. */
  headJson(): string | undefined {
    const head = this.head()?.head;
    const branches = this.#branches.json();
    return head === undefined || branches === "" ? head : `${head.slice(0, -1)},"branches":${branches}}`;
  }

  /**
   * The first message a save replaced since the last call (a fork or a branch switch changed the
   * conversation before its end), or undefined: a copy of the rows rewrites from there.
   */
  takeRewrittenFrom(): number | undefined {
    const from = this.#rewrittenFrom;
    this.#rewrittenFrom = undefined;
    return from;
  }

  /** The metadata's JSON, in the parts it is stored in. */
  metadataParts(): string[] {
    const rows = this.#storage.sql.exec<{ json: string }>("SELECT json FROM session_metadata ORDER BY part");
    return [...rows].map((row) => row.json);
  }

  #metadataPart(part: number): string | undefined {
    const rows = this.#storage.sql.exec<{ json: string }>(
      "SELECT json FROM session_metadata WHERE part = ?",
      part,
    );
    return rows.toArray()[0]?.json;
  }

  /** Rewrites the summary alone (a run started, a session was closed). */
  setSummary(summary: SessionSummary): void {
    const head = this.head();
    if (head === undefined) return;
    this.#storage.sql.exec("UPDATE session_head SET summary = ? WHERE id = 1", JSON.stringify(summary));
    head.summary = summary;
  }

  #idAt(seq: number): string | undefined {
    const row = this.#storage.sql
      .exec<{ id: string }>("SELECT id FROM session_messages WHERE seq = ? AND part = 0", seq)
      .toArray()[0];
    return row?.id;
  }

  #charsBefore(seq: number): number {
    const row = this.#storage.sql
      .exec<{ chars: number | null }>(
        "SELECT SUM(LENGTH(json)) AS chars FROM session_messages WHERE seq < ?",
        seq,
      )
      .one();
    return row.chars ?? 0;
  }

  /** The JSON of the stored messages from `from` on, at most `limit` of them, in order. */
  messageTexts(from: number, limit: number): string[] {
    const texts: string[] = [];
    let seq = -1;
    const rows = this.#storage.sql.exec<{ seq: number; json: string }>(
      "SELECT seq, json FROM session_messages WHERE seq >= ? AND seq < ? ORDER BY seq, part",
      from,
      from + limit,
    );
    for (const row of rows) {
      if (row.seq === seq) texts[texts.length - 1] += row.json;
      else texts.push(row.json);
      seq = row.seq;
    }
    return texts;
  }

  /** The whole stored state (read once: what a session is restored from), or undefined. */
  state(): SessionState | undefined {
    const head = this.head();
    if (head === undefined) return undefined;
    const messages: Message[] = [];
    for (let from = 0; from < head.messageCount; from += 1024) {
      for (const text of this.messageTexts(from, 1024)) messages.push(JSON.parse(text) as Message);
    }
    const rest = JSON.parse(this.headJson() ?? head.head) as Omit<SessionState, "messages" | "metadata">;
    const metadata = JSON.parse(this.metadataParts().join("") || "{}") as JsonObject;
    return joinStateTail([], { ...rest, metadata, messages, messagesFrom: 0, messageCount: messages.length });
  }

  /**
   * The stored state as one SessionState JSON document, streamed: the head, the metadata's parts, then
   * the messages a batch at a time, never the whole document in memory. Undefined when nothing is stored.
   */
  exportStream(): ReadableStream<Uint8Array> | undefined {
    const head = this.head();
    if (head === undefined) return undefined;
    const encoder = new TextEncoder();
    const headJson = this.headJson() ?? head.head;
    const count = head.messageCount;
    let opened = false;
    let metadataPart = 0;
    let next = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          if (!opened) {
            opened = true;
            controller.enqueue(encoder.encode(`${headJson.slice(0, -1)},"metadata":`));
            return;
          }
          if (metadataPart >= 0) {
            const part = this.#metadataPart(metadataPart);
            metadataPart = part === undefined ? -1 : metadataPart + 1;
            controller.enqueue(encoder.encode(part ?? ',"messages":['));
            return;
          }
          const texts = next < count ? this.messageTexts(next, Math.min(EXPORT_BATCH, count - next)) : [];
          if (texts.length === 0) {
            controller.enqueue(encoder.encode("]}"));
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode((next === 0 ? "" : ",") + texts.join(",")));
          next += texts.length;
        },
      },
      { highWaterMark: 1 },
    );
  }

  /** Removes every row. */
  clear(): void {
    this.#storage.sql.exec("DELETE FROM session_messages");
    this.#storage.sql.exec("DELETE FROM session_metadata");
    this.#storage.sql.exec("DELETE FROM session_head");
    this.#branches.clear();
    this.#head = undefined;
  }
}
