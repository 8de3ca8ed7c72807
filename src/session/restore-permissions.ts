/**
 * The permission policy of a session being made: the `permissions` option, else the restored state's,
 * every field filled in and — with an `approvalSecret` — signed under the session's id. A state's
 * policy is verified first: with a secret, an unsigned or wrongly signed one is refused (a client
 * holding the state must not switch itself to `bypass` or add to `allow`); without one, a signed
 * policy is refused too, fail closed, as signed approvals are.
 *
 * @module
 */

import { sameText, sign } from "../agent/approval-digest.ts";
import { type PermissionPolicy, resolvePermissions } from "../agent/permission-policy.ts";
import { permissionPolicyProblem } from "../agent/permission-rules.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonValue } from "../types.ts";
import type { SessionState } from "./session-state.ts";

/** A session's policy as it keeps and exports it: every field filled in, and its signature with a secret. */
export interface SealedPolicy {
  policy: Required<PermissionPolicy>;
  signature?: string;
}

/** HMAC-SHA-256 (hex) under `secret` of `policy` bound to the session `sessionId`. */
function signPolicy(sessionId: string, policy: Required<PermissionPolicy>, secret: string): Promise<string> {
  return sign(secret, ["permissions", sessionId, policy as unknown as JsonValue]);
}

/** `policy`, filled in, with its signature under `secret` (when there is one) for the session `sessionId`. */
export async function sealPolicy(
  policy: PermissionPolicy,
  sessionId: string,
  secret: string | undefined,
): Promise<SealedPolicy> {
  const resolved = resolvePermissions(policy);
  return secret === undefined
    ? { policy: resolved }
    : { policy: resolved, signature: await signPolicy(sessionId, resolved, secret) };
}

function tampered(message: string, reason?: string): ConfigError {
  return new ConfigError(message, {
    code: "APPROVAL_TAMPERED",
    path: "restore.permissions",
    ...(reason === undefined ? {} : { details: { reason } }),
  });
}

/** Throws ConfigError `APPROVAL_TAMPERED` when `state`'s policy cannot be trusted under `secret`. */
async function verifyPolicy(state: SessionState, secret: string | undefined): Promise<void> {
  const { permissions, permissionsSignature } = state;
  if (secret === undefined) {
    if (permissionsSignature === undefined) return;
    throw tampered(
      "Its permission policy is signed with an approvalSecret, and this session has none to verify it: create the session with the approvalSecret it was signed with",
      "secret-missing",
    );
  }
  if (permissions === undefined) {
    if (permissionsSignature === undefined) return;
    // A signature with no policy: the policy it signed was removed.
    throw tampered("The permission policy is refused: it was removed from a state that signed one");
  }
  if (permissionsSignature === undefined)
    throw tampered(
      "The permission policy is refused: it is not signed, and this session requires signed approvals",
    );
  const expected = await signPolicy(state.sessionId, resolvePermissions(permissions), secret);
  if (!sameText(expected, permissionsSignature))
    throw tampered("The permission policy is refused: its signature is not valid");
}

/**
 * The policy of a session made with `option` (its `permissions`) from `state` (restored, not yet
 * verified; undefined for a new session), sealed for `sessionId`; undefined when it has none. Throws
 * ConfigError `CONFIG_INVALID` for an option that is not a valid policy, and `APPROVAL_TAMPERED` for a
 * state's policy that cannot be trusted, even one the option replaces.
 */
export async function sessionPolicy(
  option: PermissionPolicy | undefined,
  state: SessionState | undefined,
  sessionId: string,
  secret: string | undefined,
): Promise<SealedPolicy | undefined> {
  const wrong = permissionPolicyProblem(option);
  if (wrong !== undefined) throw wrong;
  if (state !== undefined) await verifyPolicy(state, secret);
  const policy = option ?? state?.permissions;
  return policy === undefined ? undefined : sealPolicy(policy, sessionId, secret);
}
