/**
 * How a run's loop ends, and the end a hook's or a tool run's outcome means.
 *
 * @module
 */

import { abortErrorFrom } from "../errors/classify.ts";
import type { AnySdkError, HookError } from "../errors/sdk-error.ts";
import type { StopReason } from "../types.ts";
import type { PausedTurn } from "./approvals.ts";

/**
 * How the loop ended: the stop reason, the error when it failed, why a hook or budget ended it, and —
 * with stopReason `approval` — the calls that wait and the results of the turn's other calls.
 */
export interface LoopEnd {
  stopReason: StopReason;
  error?: AnySdkError;
  stopDetail?: string;
  paused?: PausedTurn;
}

/**
 * The end of a run that pauses on `paused`: stopReason `approval` when any call waits for approval
 * (questions may wait beside them), `question` when only the ask tool's calls wait for answers.
 */
export function pausedEnd(paused: PausedTurn): LoopEnd {
  return { stopReason: paused.approvals.length > 0 ? "approval" : "question", paused };
}

/** Whether the run goes on after hooks or tool calls, and if not, why. */
export type RunControl =
  | { kind: "go" }
  | { kind: "stop"; reason?: string }
  | { kind: "failed"; error: HookError }
  | { kind: "aborted" };

/**
 * The end of the run `control` means, or undefined when the run goes on. Hook outcomes that answer
 * for one call or one stop (`deny`, `block`) do not end the run.
 */
export function endFrom(
  control: RunControl | { kind: "deny" | "block" },
  signal: AbortSignal,
): LoopEnd | undefined {
  switch (control.kind) {
    case "aborted":
      return { stopReason: "aborted", error: abortErrorFrom(signal) };
    case "failed":
      return { stopReason: "error", error: control.error };
    case "stop":
      return control.reason === undefined
        ? { stopReason: "hookStop" }
        : { stopReason: "hookStop", stopDetail: control.reason };
    default:
      return undefined;
  }
}
