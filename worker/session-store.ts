/**
 * Where sessions live: one KV record per session holding the token's digest and the SessionState.
 *
 * @module
 */

import type { SessionState } from "wisp-agent";

/** What KV holds per session. Never an API key: the state has none, and the token only as a digest. */
export interface SessionRecord {
  tokenDigest: string;
  state: SessionState;
}

const key = (sessionId: string): string => `session:${sessionId}`;

/** The record of a session, or undefined. */
export async function loadRecord(kv: KVNamespace, sessionId: string): Promise<SessionRecord | undefined> {
  const record = await kv.get<SessionRecord>(key(sessionId), "json");
  return record ?? undefined;
}

/** How long an untouched session lives in KV; every save starts the time again. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The most a stored session may take, in characters of JSON. */
export const MAX_SESSION_CHARS = 4 * 1024 * 1024;

/** Writes a session's record (the exported copy), to expire after {@link SESSION_TTL_SECONDS} unused. */
export async function saveRecord(kv: KVNamespace, sessionId: string, record: SessionRecord): Promise<void> {
  await kv.put(key(sessionId), JSON.stringify(record), { expirationTtl: SESSION_TTL_SECONDS });
}

/** Removes a session's record. */
export async function deleteRecord(kv: KVNamespace, sessionId: string): Promise<void> {
  await kv.delete(key(sessionId));
}
