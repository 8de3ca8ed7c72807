/**
 * The approval part of a restored SessionState, verified before a session holds it: pending calls
 * whose digest no longer matches (their arguments were edited after the pause) are refused; with an
 * `approvalSecret`, so are unsigned or wrongly signed approvals and standing tool permissions. A
 * state restored under another session id (a copy of the whole session) is verified under its own id
 * and sealed again under the new one.
 *
 * @module
 */

import {
  approvalTampering,
  permissionsTampering,
  sealApproval,
  signPermissions,
} from "../agent/approval-digest.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { SessionState } from "./session-state.ts";

function tampered(message: string, path: string, details?: Record<string, string>): ConfigError {
  return new ConfigError(message, { code: "APPROVAL_TAMPERED", path, ...(details ? { details } : {}) });
}

/**
 * Fails closed on a state signed with a secret this session does not have: a server that forgot its
 * `approvalSecret` must not take signed pauses (or standing permissions) unchecked.
 */
function unverifiable(state: SessionState): void {
  const index = state.pendingApprovals.findIndex((approval) => approval.signature !== undefined);
  if (index === -1 && state.toolPermissionsSignature === undefined) return;
  const what = index === -1 ? "Its standing tool permissions are signed" : "Its pending approvals are signed";
  throw tampered(
    `${what} with an approvalSecret, and this session has none to verify them: create the session with the approvalSecret they were signed with`,
    index === -1 ? "restore.toolPermissionsSignature" : `restore.pendingApprovals.${index}.signature`,
    { reason: "secret-missing" },
  );
}

/**
 * `state`, verified and bound to `sessionId`; throws ConfigError `APPROVAL_TAMPERED` naming the first
 * part that cannot be trusted.
 */
export async function verifiedApprovals(
  state: SessionState,
  sessionId: string,
  secret: string | undefined,
): Promise<SessionState> {
  if (secret === undefined) unverifiable(state);
  for (const [index, approval] of state.pendingApprovals.entries()) {
    const why = await approvalTampering(state.sessionId, approval, secret);
    if (why === undefined) continue;
    throw tampered(
      `Pending approval of tool call ${approval.toolCallId} is refused: ${why}`,
      `restore.pendingApprovals.${index}`,
      { toolCallId: approval.toolCallId },
    );
  }
  if (secret !== undefined) {
    const { toolPermissions, toolPermissionsSignature } = state;
    const why = await permissionsTampering(
      state.sessionId,
      toolPermissions,
      toolPermissionsSignature,
      secret,
    );
    if (why !== undefined)
      throw tampered(`The standing tool permissions are refused: ${why}`, "restore.toolPermissions");
  }
  if (sessionId === state.sessionId) return state;
  const rebound: SessionState = {
    ...state,
    sessionId,
    pendingApprovals: await Promise.all(
      state.pendingApprovals.map((approval) => sealApproval(sessionId, approval, secret)),
    ),
  };
  delete rebound.toolPermissionsSignature;
  if (secret !== undefined)
    rebound.toolPermissionsSignature = await signPermissions(sessionId, state.toolPermissions, secret);
  return rebound;
}
