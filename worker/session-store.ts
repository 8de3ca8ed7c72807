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

/** Writes a session's record. */
export async function saveRecord(kv: KVNamespace, sessionId: string, record: SessionRecord): Promise<void> {
  await kv.put(key(sessionId), JSON.stringify(record));
}

/** Removes a session's record. */
export async function deleteRecord(kv: KVNamespace, sessionId: string): Promise<void> {
  await kv.delete(key(sessionId));
}
