/**
 * A session's permission policy between runs: `setPermissions` checks a new policy, fills it in, signs
 * it (with the session's `approvalSecret`) and puts it in force for the next run. Loaded by the first
 * `setPermissions` call.
 *
 * @module
 */

import { type PermissionPolicy, resolvePermissions } from "../agent/permission-policy.ts";
import { permissionPolicyProblem } from "../agent/permission-rules.ts";
import type { Result } from "../agent/result.ts";
import { err } from "../agent/result-helpers.ts";
import { classifyThrown } from "../errors/classify.ts";
import { type AnySdkError, ConfigError } from "../errors/sdk-error.ts";
import type { LiveState } from "./live-state.ts";
import { sealPolicy } from "./restore-permissions.ts";
import { busy, closedError } from "./session-refusals.ts";

/** Why the policy cannot change now (closed, or a run in flight or being resumed), or undefined. */
function notNow(state: LiveState): ConfigError | undefined {
  if (state.closed) return closedError();
  return state.current !== undefined || state.resuming
    ? busy(
        "A run is in flight: change the permission policy between runs (when this run has ended)",
        "permissions",
      )
    : undefined;
}

/**
 * Puts `input` in force from the next run on. Never rejects: a policy that is not valid (a ConfigError
 * `CONFIG_INVALID` whose `path` names the field), a closed session (`SESSION_CLOSED`) and a run in
 * flight (`SESSION_BUSY`) are failed Results, and the policy stays as it was.
 */
export async function setPermissions(
  state: LiveState,
  input: unknown,
): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>> {
  const problem =
    notNow(state) ?? permissionPolicyProblem(input) ?? (input === undefined ? missing() : undefined);
  if (problem !== undefined) return err(problem);
  let sealed: Awaited<ReturnType<typeof sealPolicy>>;
  try {
    sealed = await sealPolicy(input as PermissionPolicy, state.sessionId, state.approvalSecret);
  } catch (thrown) {
    return err(classifyThrown(thrown, {}));
  }
  // A run that started while the policy was being signed keeps the policy it started with.
  const late = notNow(state);
  if (late !== undefined) return err(late);
  state.policy = sealed;
  return { ok: true, value: resolvePermissions(sealed.policy) };
}

/** CONFIG_INVALID for a call without a policy. */
function missing(): ConfigError {
  return new ConfigError("setPermissions needs a policy object ({ mode, allow, deny, acceptClasses })", {
    code: "CONFIG_INVALID",
    path: "permissions",
  });
}
