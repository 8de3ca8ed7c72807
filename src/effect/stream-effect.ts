/**
 * A run's event stream as an Effect `Stream`: every event in order, a failed run's end as the stream's
 * failure, and a consumer that stops early (interrupted, `Stream.take`, a failing sink) aborting the run.
 *
 * @module
 */

import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import type { AgentEvent, AgentRun } from "../agent/agent-events.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import { fromRunResult } from "./partial-result.ts";

/** Aborts the run (a no-op once it ended) and, with `settle`, waits for it to settle. */
function stopRun(run: AgentRun<AnyTool>, settle: boolean): Effect.Effect<void> {
  return Effect.promise(() => {
    run.abort();
    return settle ? run.result.then(ignore, ignore) : Promise.resolve();
  });
}

/** The event as it is, or — for a `run-end` of a failed run — the failure with its SdkError. */
function endOrEvent<T extends AnyTool>(event: AgentEvent<T>): Effect.Effect<AgentEvent<T>, AnySdkError> {
  if (event.type !== "run-end" || event.result.ok) return Effect.succeed(event);
  return Effect.as(fromRunResult(event.result), event);
}

/**
 * The events of the run `start` begins, started when the stream is run (once per run of the stream).
 * A successful run ends with its `run-end` event; a failed run's `run-end` becomes the stream's failure
 * (its partial result via `partialOf`). However the stream ends, the run is aborted if still going and
 * has settled before the stream's scope closes — unless `settle` is false (a prompt steered into a run
 * that belongs to another call: stopping this stream takes the prompt back and stops waiting).
 */
export function streamEffect<T extends AnyTool>(
  start: () => AgentRun<T>,
  settle = true,
): Stream.Stream<AgentEvent<T>, AnySdkError> {
  const acquire = Effect.acquireRelease(Effect.sync(start), (run) => stopRun(run, settle));
  return Stream.unwrap(
    Effect.map(acquire, (run) =>
      Stream.fromAsyncIterable(run, (cause) => cause).pipe(Stream.orDie, Stream.mapEffect(endOrEvent)),
    ),
  );
}

const ignore = (): void => {};
