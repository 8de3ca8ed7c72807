/**
 * What the transcript writers check before they write: a message, a state, a session id and a cursor
 * of the right shape. A wrong one is a ConfigError naming its path, thrown before any line is made, so
 * a file is never given a half-written or misparented line.
 *
 * @module
 */

import { isPlainObject } from "../config/option-checks.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { SessionState } from "../session/session-state.ts";
import { checkShape } from "../state/check-messages.ts";
import { checkMessage } from "../state/state-shape.ts";
import type { Message } from "../types.ts";

function refuse(message: string, path: string): never {
  throw new ConfigError(message, { code: "CONFIG_INVALID", path });
}

/** `message` if it is a Wisp message (as a session holds it); else throws ConfigError at `message`. */
export function checkedMessage(message: unknown): Message {
  const checked = checkShape(checkMessage, message, ["message"]);
  if (checked instanceof ConfigError) throw checked;
  return checked;
}

const PROVIDERS: readonly unknown[] = ["anthropic", "openai-chat", "openai-responses", "google"];

/**
 * `state` if the fields a writer reads of it are there (`session.export()`, or a read transcript's
 * state). Its messages are checked one by one as they are written (see {@link checkedMessage}), not
 * here as well.
 */
export function checkedState(state: unknown): SessionState {
  if (!isPlainObject(state) || typeof state.sessionId !== "string")
    refuse("Expected a SessionState (session.export(), or the state a transcript was read into)", "state");
  if (!Array.isArray(state.messages)) refuse("messages must be an array of messages", "messages");
  if (!isPlainObject(state.metadata)) refuse("metadata must be an object", "metadata");
  if (!PROVIDERS.includes(state.provider))
    refuse(`provider must be one of ${PROVIDERS.join(", ")}`, "provider");
  if (typeof state.model !== "string") refuse("model must be a string", "model");
  return state as unknown as SessionState;
}

/** A writer's session id: a non-empty string. */
export function checkedSessionId(sessionId: unknown): string {
  if (typeof sessionId !== "string" || sessionId === "")
    refuse("sessionId must be a non-empty string", "sessionId");
  return sessionId;
}

/** A Claude Code writer's cursor: `{ parentUuid: string | null, calls: { [callId]: uuid } }`. */
export function checkClaudeCodeCursor(cursor: unknown): void {
  if (cursor === undefined) return;
  if (!isPlainObject(cursor)) refuse("cursor must be a Claude Code writer's cursor", "cursor");
  if (cursor.parentUuid !== null && typeof cursor.parentUuid !== "string")
    refuse("cursor.parentUuid must be the uuid of the last line written, or null", "cursor.parentUuid");
  if (!isPlainObject(cursor.calls) || Object.values(cursor.calls).some((uuid) => typeof uuid !== "string"))
    refuse("cursor.calls must map tool call ids to the uuids of their lines", "cursor.calls");
}

/** A pi writer's cursor: `{ version: 1 | 2 | 3, parentId: string | null }`. */
export function checkPiCursor(cursor: unknown, newest: number): void {
  if (cursor === undefined) return;
  if (!isPlainObject(cursor)) refuse("cursor must be a pi writer's cursor", "cursor");
  if (
    typeof cursor.version !== "number" ||
    !Number.isInteger(cursor.version) ||
    cursor.version < 1 ||
    cursor.version > newest
  )
    refuse(`cursor.version must be a pi format version from 1 to ${newest}`, "cursor.version");
  if (cursor.parentId !== null && typeof cursor.parentId !== "string")
    refuse("cursor.parentId must be the id of the last entry written, or null", "cursor.parentId");
}
