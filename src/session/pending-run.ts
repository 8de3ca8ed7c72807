/**
 * A session's runs as entries: a prompt or resume waiting its turn in the queue (`PendingRun`, made
 * by `pendingRun`), and the one in flight (`CurrentRun`).
 *
 * @module
 */

import type { AgentEvent, AgentRunResult } from "../agent/agent-events.ts";
import type { StandardSchema } from "../schema/standard-schema.ts";
import type { TelemetryContext } from "../telemetry/telemetry-options.ts";
import type { CheckedDecisions } from "./check-decisions.ts";
import type { QueuedPrompt } from "./session-state.ts";

/** A prompt or resume waiting to run: what it sends, where its events go, and how its call settles. */
export interface PendingRun {
  prompt: QueuedPrompt;
  /** The run's structured output, when its prompt asked for one. */
  output?: StandardSchema;
  /** The parent of the run's span, when its prompt gave one (over the session's `telemetry.parent`). */
  traceParent?: TelemetryContext;
  /** A resume: the decisions to run (then `prompt` is not sent). */
  resume?: CheckedDecisions;
  signal: AbortSignal | undefined;
  emit: (event: AgentEvent) => void;
  controller: AbortController;
  resolve: (result: AgentRunResult) => void;
  /** Resolves with the run's result once it ran (or was dropped). */
  settled: Promise<AgentRunResult>;
  /** Stops listening to `signal` for a drop from the queue (once the run starts). */
  unwatch?: () => void;
  /** Undoes the fork the prompt made (its `parentId`), if the prompt never reaches the conversation. */
  unfork?: () => void;
}

/** The run in flight: its entry, its result to come, where its messages start, whether it is counted. */
export interface CurrentRun {
  pending: PendingRun;
  done: Promise<AgentRunResult>;
  firstIndex: number;
  accounted: boolean;
}

/** Does nothing: the events of a run nobody streams, a listener that has nothing to undo. */
export const ignore = (): void => {};

/** A new entry for `prompt`, its call unsettled until the run ends or the entry is dropped. */
export function pendingRun(
  prompt: QueuedPrompt,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
  controller = new AbortController(),
): PendingRun {
  let resolve: (result: AgentRunResult) => void = ignore;
  const settled = new Promise<AgentRunResult>((done) => {
    resolve = done;
  });
  return { prompt, signal, emit, controller, resolve, settled };
}
