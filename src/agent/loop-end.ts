/**
 * How a run's loop ends, and the end a hook's or a tool run's outcome means.
 *
 * @module
 */

import { abortErrorFrom } from "../errors/classify.ts";
import type { HookError, SdkError } from "../errors/sdk-error.ts";
import type { StopReason } from "../types.ts";

/** How the loop ended: the stop reason, the error when it failed, and why a hook or budget ended it. */
export interface LoopEnd {
  stopReason: StopReason;
  error?: SdkError;
  stopDetail?: string;
}

/** An outcome that may end the run: from hooks or from running tool calls. */
export type RunControl =
  | { kind: "aborted" }
  | { kind: "failed"; error: HookError }
  | { kind: "stop"; reason?: string }
  | { kind: string };

/** The end of the run `control` means, or undefined when the run goes on. */
export function endFrom(control: RunControl, signal: AbortSignal): LoopEnd | undefined {
  if (control.kind === "aborted") return { stopReason: "aborted", error: abortErrorFrom(signal) };
  if (control.kind === "failed" && "error" in control) return { stopReason: "error", error: control.error };
  if (control.kind === "stop") {
    const reason = "reason" in control ? control.reason : undefined;
    return reason === undefined ? { stopReason: "hookStop" } : { stopReason: "hookStop", stopDetail: reason };
  }
  return undefined;
}
