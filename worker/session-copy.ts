/**
 * The session's copy in KV, beside the primary copy in its Durable Object: pages of
 * {@link PAGE_MESSAGES} messages, each gzip-compressed (`CompressionStream`) and, past
 * {@link PART_BYTES}, cut into parts, so no value comes near KV's 25 MiB limit; and one key naming
 * them with the state's head. A write rewrites only the pages from the first message not yet copied
 * (the last, partly filled page and any new ones) and the small index: its cost follows the turn, not
 * the conversation.
 *
 * @module
 */

import type { JsonObject, Message, SessionState } from "wisp-agent";
import type { SessionRows } from "./session-rows.ts";

/** Messages per page. */
const PAGE_MESSAGES = 256;

/** The largest value a page part takes (KV takes 25 MiB). */
const PART_BYTES = 20 * 1024 * 1024;

/** The copy's index: the head of the state, how many parts each page has, and the metadata's. */
interface CopyIndex {
  head: string;
  messageCount: number;
  /** Parts per page, in page order. */
  pages: number[];
  /** The rows' metadata version the copy holds, and in how many parts. */
  metadata: { version: number; parts: number };
}

const indexKey = (sessionId: string): string => `copy:${sessionId}`;
const partKey = (sessionId: string, page: number | "meta", part: number): string =>
  `copy:${sessionId}:${page}:${part}`;

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/** Writes `text` gzip-compressed under `page`'s part keys; returns how many parts and bytes. */
async function putPacked(
  kv: KVNamespace,
  sessionId: string,
  page: number | "meta",
  text: string,
  partBytes: number,
): Promise<{ parts: number; bytes: number }> {
  const packed = await gzip(text);
  const parts = Math.ceil(packed.length / partBytes) || 1;
  for (let part = 0; part < parts; part++) {
    await kv.put(partKey(sessionId, page, part), packed.subarray(part * partBytes, (part + 1) * partBytes));
  }
  return { parts, bytes: packed.length };
}

/** The text {@link putPacked} wrote under `page`. */
async function getPacked(
  kv: KVNamespace,
  sessionId: string,
  page: number | "meta",
  parts: number,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  for (let part = 0; part < parts; part++) {
    const value = await kv.get(partKey(sessionId, page, part), "arrayBuffer");
    if (value === null) throw new Error(`the KV copy of session ${sessionId} lacks ${page}:${part}`);
    chunks.push(new Uint8Array(value));
  }
  return gunzip(concat(chunks));
}

/**
 * Copies the stored session to KV, rewriting the pages from message `copied` on (the messages copied
 * before stay). Returns how many messages the copy holds and how many bytes it wrote. `partBytes` is
 * the largest value written ({@link PART_BYTES}; tests pass less to see a page cut into parts).
 */
export async function writeCopy(
  kv: KVNamespace,
  sessionId: string,
  rows: SessionRows,
  copied: number,
  partBytes = PART_BYTES,
): Promise<{ messageCount: number; bytes: number }> {
  const head = rows.head();
  if (head === undefined) return { messageCount: 0, bytes: 0 };
  const previous = await kv.get<CopyIndex>(indexKey(sessionId), "json");
  const count = head.messageCount;
  const pageCount = Math.ceil(count / PAGE_MESSAGES);
  const known = previous?.pages ?? [];
  const first = Math.min(
    Math.floor(Math.min(copied, previous?.messageCount ?? 0) / PAGE_MESSAGES),
    pageCount,
  );
  const pages = known.slice(0, first);
  let bytes = 0;
  for (let page = first; page < pageCount; page++) {
    const written = await putPacked(
      kv,
      sessionId,
      page,
      `[${rows.messageTexts(page * PAGE_MESSAGES, PAGE_MESSAGES).join(",")}]`,
      partBytes,
    );
    bytes += written.bytes;
    pages.push(written.parts);
  }
  // The metadata only when the rows hold a newer one than the copy (a session's first save, mostly).
  let metadata = previous?.metadata;
  if (metadata?.version !== head.metadataVersion) {
    const written = await putPacked(kv, sessionId, "meta", rows.metadataParts().join("") || "{}", partBytes);
    bytes += written.bytes;
    metadata = { version: head.metadataVersion, parts: written.parts };
  }
  // The head with a forked session's branches (kept in rows of their own), so the copy restores whole.
  const index: CopyIndex = { head: rows.headJson() ?? head.head, messageCount: count, pages, metadata };
  const indexJson = JSON.stringify(index);
  await kv.put(indexKey(sessionId), indexJson);
  return { messageCount: count, bytes: bytes + indexJson.length };
}

/** The session as its KV copy holds it, or undefined when there is no copy. */
export async function readCopy(kv: KVNamespace, sessionId: string): Promise<SessionState | undefined> {
  const index = await kv.get<CopyIndex>(indexKey(sessionId), "json");
  if (index === null) return undefined;
  const messages: Message[] = [];
  for (const [page, parts] of index.pages.entries()) {
    messages.push(...(JSON.parse(await getPacked(kv, sessionId, page, parts)) as Message[]));
  }
  const head = JSON.parse(index.head) as Omit<SessionState, "messages" | "metadata">;
  const metadata = JSON.parse(await getPacked(kv, sessionId, "meta", index.metadata.parts)) as JsonObject;
  return { ...head, metadata, messages: messages.slice(0, index.messageCount) };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}

/** Removes the copy. */
export async function deleteCopy(kv: KVNamespace, sessionId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await kv.list({
      prefix: indexKey(sessionId),
      ...(cursor === undefined ? {} : { cursor }),
    });
    await Promise.all(listed.keys.map((key) => kv.delete(key.name)));
    cursor = listed.list_complete ? undefined : listed.cursor;
  } while (cursor !== undefined);
}
