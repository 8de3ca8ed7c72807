/**
 * What KV holds of a session: a small entry per session (the token's digest, which the API checks on
 * every request, and the digest of the client that listed it), and per listing client one key whose
 * metadata is the session's summary, so `GET /api/sessions` never loads a state. The session itself
 * lives in its Durable Object's storage (worker/session-rows.ts) and, as a copy, in KV pages
 * (worker/session-copy.ts).
 *
 * Before: the entry held the whole state (`{ tokenDigest, state }`); such an entry is still read, and
 * its session moved into rows on first use (worker/session-migration.ts).
 *
 * @module
 */

import type { SessionState } from "wisp-agent";
import type { SessionSummary } from "./session-summary.ts";

/** A session's KV entry: never an API key, and the token only as a digest. */
export interface SessionEntry {
  tokenDigest: string;
  /** The SHA-256 digest of the client secret the session is listed for, if any. */
  client?: string;
  /** Only in the entries of before rows: the whole state. */
  state?: SessionState;
}

/** How long an untouched session lives; every save starts the time again. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The most a stored session may take, in characters of JSON (64 Mi). */
export const MAX_SESSION_CHARS = 64 * 1024 * 1024;

/** The cap on a stored session: `SESSION_MAX_CHARS` when it is a lower positive integer, else {@link MAX_SESSION_CHARS}. */
export function sessionCharLimit(configured: string | undefined): number {
  const value = Number(configured);
  return Number.isSafeInteger(value) && value > 0 && value < MAX_SESSION_CHARS ? value : MAX_SESSION_CHARS;
}

/** Most sessions `GET /api/sessions` gives. */
const MAX_LISTED = 100;

const entryKey = (sessionId: string): string => `session:${sessionId}`;
const listingKey = (client: string, sessionId: string): string => `list:${client}:${sessionId}`;

/** The entry of a session, or undefined. */
export async function loadEntry(kv: KVNamespace, sessionId: string): Promise<SessionEntry | undefined> {
  return (await kv.get<SessionEntry>(entryKey(sessionId), "json")) ?? undefined;
}

/** Writes a session's entry (without any state), to expire after {@link SESSION_TTL_SECONDS} unused. */
export async function saveEntry(kv: KVNamespace, sessionId: string, entry: SessionEntry): Promise<void> {
  const { state: _, ...small } = entry;
  await kv.put(entryKey(sessionId), JSON.stringify(small), { expirationTtl: SESSION_TTL_SECONDS });
}

/** Writes the summary under the client's listing. */
export async function saveListing(kv: KVNamespace, client: string, summary: SessionSummary): Promise<void> {
  await kv.put(listingKey(client, summary.sessionId), "", {
    metadata: summary,
    expirationTtl: SESSION_TTL_SECONDS,
  });
}

/** Removes a session's entry and listing. */
export async function deleteEntry(kv: KVNamespace, sessionId: string, client?: string): Promise<void> {
  await kv.delete(entryKey(sessionId));
  if (client !== undefined) await kv.delete(listingKey(client, sessionId));
}

/** The sessions listed for a client, newest first, from KV metadata alone. */
export async function listSessions(kv: KVNamespace, client: string): Promise<SessionSummary[]> {
  const summaries: SessionSummary[] = [];
  let cursor: string | undefined;
  // At most ten pages of 1,000 keys: a client with more sees its newest among those.
  for (let page = 0; page < 10; page++) {
    const listed = await kv.list<SessionSummary>({
      prefix: `list:${client}:`,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const key of listed.keys) if (key.metadata !== undefined) summaries.push(key.metadata);
    if (listed.list_complete) break;
    cursor = listed.cursor;
  }
  return summaries.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_LISTED);
}
