/**
 * Where a session's state is found when its Durable Object holds no rows yet: sessions stored before
 * rows (one JSON document, in the object's storage in 512 Ki-character chunks `record:0…`, counted by
 * `record:count`, and in KV as the entry `{ tokenDigest, state }`), or the KV copy of a session whose
 * object lost its storage. The runner restores what is found and saves it as rows; this module only
 * finds it, and removes the old chunks once the rows are written.
 *
 * @module
 */

import type { SessionState } from "wisp-agent";
import { readCopy } from "./session-copy.ts";
import { loadEntry } from "./session-store.ts";

/** The chunked record of before rows, in the object's storage. */
const LEGACY_KEY = "record";

/** A state found outside the rows, and where. */
export interface FoundState {
  tokenDigest: string;
  state: SessionState;
  from: "legacy-storage" | "legacy-kv" | "kv-copy";
  /** The digest of the client the session is listed for, from its KV entry (the chunks never held it). */
  client?: string;
}

/** The one-document record of before rows in the object's storage, or undefined. */
async function legacyStored(storage: DurableObjectStorage): Promise<FoundState | undefined> {
  const count = await storage.get<number>(`${LEGACY_KEY}:count`);
  if (count === undefined) return undefined;
  const keys = Array.from({ length: count }, (_, index) => `${LEGACY_KEY}:${index}`);
  const parts = await storage.get<string>(keys);
  const record = JSON.parse(keys.map((name) => parts.get(name) ?? "").join("")) as {
    tokenDigest: string;
    state: SessionState;
  };
  return { ...record, from: "legacy-storage" };
}

/**
 * The state of a session without rows: the object's old chunks first (they are newer than KV's copy
 * of the time, written at most once a second), then the old KV entry, then the KV copy. Undefined when
 * there is none: no such session.
 */
export async function findState(
  storage: DurableObjectStorage,
  kv: KVNamespace,
  sessionId: string,
): Promise<FoundState | undefined> {
  const stored = await legacyStored(storage);
  if (stored !== undefined) return stored;
  const entry = await loadEntry(kv, sessionId);
  if (entry === undefined) return undefined;
  const listed = entry.client === undefined ? {} : { client: entry.client };
  if (entry.state !== undefined)
    return { tokenDigest: entry.tokenDigest, state: entry.state, from: "legacy-kv", ...listed };
  const copy = await readCopy(kv, sessionId);
  return copy === undefined
    ? undefined
    : { tokenDigest: entry.tokenDigest, state: copy, from: "kv-copy", ...listed };
}

/** Removes the chunks of before rows from the object's storage (after the rows hold the session). */
export async function removeLegacy(storage: DurableObjectStorage): Promise<void> {
  const count = await storage.get<number>(`${LEGACY_KEY}:count`);
  if (count === undefined) return;
  const keys = Array.from({ length: count }, (_, index) => `${LEGACY_KEY}:${index}`);
  await storage.delete([...keys, `${LEGACY_KEY}:count`]);
}
