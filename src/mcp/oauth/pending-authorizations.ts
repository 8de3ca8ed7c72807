/**
 * The authorizations under way for one server, kept in storage until the person comes back: a few at
 * once (a second tab, or a run whose refresh failed, does not replace the one a person is partway
 * through), each found by its `state`, used once, and forgotten after {@link PENDING_TTL_MS}.
 *
 * @module
 */

import type { JsonValue } from "../../types.ts";
import { isPendingAuthorization, type PendingAuthorization } from "./authorization-code.ts";
import { type McpAuthStorage, storageKey } from "./storage.ts";

/** How long a person has to come back from the authorization server: 30 minutes. */
const PENDING_TTL_MS = 30 * 60_000;

/** How many authorizations are kept at once for one server (the oldest goes first). */
const MAX_PENDING = 5;

/** The unexpired pending authorizations kept for `url` (one record, as stored before, is a list of one). */
async function readPending(
  storage: McpAuthStorage,
  url: string,
  now: number,
): Promise<PendingAuthorization[]> {
  const value = await storage.get(storageKey("pending", url));
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter(
    (item): item is PendingAuthorization & JsonValue =>
      isPendingAuthorization(item) && now - (item.createdAt ?? 0) < PENDING_TTL_MS,
  );
}

async function writePending(
  storage: McpAuthStorage,
  url: string,
  list: PendingAuthorization[],
): Promise<void> {
  const key = storageKey("pending", url);
  if (list.length === 0) await storage.delete(key);
  else await storage.set(key, list as unknown as JsonValue);
}

/** Keeps `pending` beside the others for `url` (at most {@link MAX_PENDING}, expired ones dropped). */
export async function keepPending(
  storage: McpAuthStorage,
  url: string,
  pending: PendingAuthorization,
): Promise<void> {
  const list = await readPending(storage, url, Date.now());
  await writePending(storage, url, [...list, pending].slice(-MAX_PENDING));
}

/**
 * The pending authorization whose `state` came back in `callbackUrl`, taken out of storage (used
 * once); undefined when none is (finished already, expired, or never begun in this storage).
 */
export async function takePending(
  storage: McpAuthStorage,
  url: string,
  callbackUrl: string,
): Promise<PendingAuthorization | undefined> {
  let state: string | null;
  try {
    state = new URL(callbackUrl).searchParams.get("state");
  } catch {
    return undefined;
  }
  const list = await readPending(storage, url, Date.now());
  const found = list.find((item) => item.state === state);
  if (found !== undefined)
    await writePending(
      storage,
      url,
      list.filter((item) => item !== found),
    );
  return found;
}
