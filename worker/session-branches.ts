/**
 * The Worker's side of forks (docs/forks.md): what the runner needs to fork a run, list a session's
 * branches and switch between them, and the API errors a refused fork or switch becomes.
 *
 * @module
 */

import type { AgentSession, ConfigError } from "wisp-agent";
import { ApiError } from "./api-error.ts";

/**
 * How many messages a run forked at `parentId` starts after (what a client that reattaches draws
 * before replaying the run): the messages up to `parentId`, none for `null`. A fork is rare, so the
 * conversation is read here rather than kept.
 */
export function messagesUpTo(session: AgentSession, parentId: string | null): number {
  if (parentId === null) return 0;
  const { messages } = session.exportTail(0, { metadata: false });
  return messages.findIndex((message) => message.id === parentId) + 1;
}

/** A refused switch as the API answers it: an unknown leaf is 400, a session that cannot switch now 409. */
export function switchRefusal(error: ConfigError): ApiError {
  return new ApiError(error.code === "BRANCH_INVALID" ? 400 : 409, error.code, error.message, error.path);
}

/** The `leafId` of a switch request's body (parsed JSON, so only an object can hold one), checked. */
export function leafIdOf(body: unknown): string {
  const leafId = (body as { leafId?: unknown } | null)?.leafId;
  if (typeof leafId !== "string") {
    throw new ApiError(400, "INVALID_REQUEST", "The body must be an object { leafId }", "leafId");
  }
  return leafId;
}

/** The `parentId` of a message request's body: absent, `null` (the start) or a message id. */
export function parentIdOf(body: unknown): { parentId?: string | null } {
  const parentId = (body as { parentId?: unknown } | null)?.parentId;
  if (parentId === undefined) return {};
  if (parentId !== null && (typeof parentId !== "string" || parentId === "")) {
    throw new ApiError(400, "INVALID_REQUEST", "parentId must be a message id or null", "parentId");
  }
  return { parentId };
}
