/**
 * A run of the Promise API as an Effect: the fiber's interruption aborts the run, and the interruption
 * completes only once the run has settled — the upstream request ended, the tools and hooks told.
 *
 * @module
 */

import * as Effect from "effect/Effect";
import type { AgentResult, AgentRunResult } from "../agent/agent-events.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import { fromRunResult } from "./partial-result.ts";

/**
 * Starts a run with a signal the fiber's interruption aborts. Success is the run's value; failure its
 * SdkError (see `partialOf` for what it did before). With `awaitOnInterrupt` (the default) the
 * interruption waits for the run to settle; without it (a steered prompt, whose run is not this
 * fiber's to stop) the fiber just stops waiting.
 */
export function runEffect<T extends AnyTool>(
  start: (signal: AbortSignal) => Promise<AgentRunResult<T>>,
  awaitOnInterrupt = true,
): Effect.Effect<AgentResult<T>, AnySdkError> {
  return Effect.callback<AgentResult<T>, AnySdkError>((resume, signal) => {
    const settled = start(signal);
    settled.then(
      (result) => resume(fromRunResult(result)),
      (defect: unknown) => resume(Effect.die(defect)),
    );
    // Runs after `signal` is aborted: the run ends within milliseconds with ABORTED.
    if (!awaitOnInterrupt) return undefined;
    return Effect.promise(() => settled.then(ignore, ignore));
  });
}

const ignore = (): void => {};
