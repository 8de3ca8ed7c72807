/**
 * `runAgentEffect` and `runAgentStreamEffect`: `runAgent` and `runAgentStream` as an Effect and a
 * Stream whose error channel is Wisp's tagged errors.
 *
 * @module
 */

import type * as Effect from "effect/Effect";
import type * as Stream from "effect/Stream";
import type { AgentEvent, AgentResult } from "../agent/agent-events.ts";
import type { AgentOptions } from "../agent/agent-options.ts";
import { runAgent, runAgentStream } from "../agent/run-agent.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import { withFiberSignal } from "./abort-signals.ts";
import { runEffect } from "./run-effect.ts";
import { streamEffect } from "./stream-effect.ts";

/**
 * Runs an agent to the end, as an Effect. It succeeds with the run's AgentResult and fails with the
 * run's SdkError — the union of Wisp's tagged errors, so `Effect.catchTag("ProviderError", …)` and
 * `Effect.catchTags({ … })` narrow it. A failed run's partial result (its messages, the partial
 * assistant message last) is `partialOf(error)`.
 *
 * Each time the Effect runs, a new run starts: `Effect.retry` runs the agent again. Interrupting the
 * fiber aborts the run — the upstream request is closed — and the interruption completes once the run
 * has settled; an interruption carries no value, so to keep a partial answer use a session (the
 * aborted assistant message stays in `session.export()`) or `runAgentStreamEffect`. A `signal` in the
 * options still works, and ends the run with an AbortError in the error channel.
 *
 * @example
 * ```ts
 * import { Effect } from "effect";
 * import { runAgentEffect } from "wisp-agent/effect";
 *
 * const answer = runAgentEffect({ model: "anthropic/claude-sonnet-4-5", apiKey, prompt: "Hi" }).pipe(
 *   Effect.map((result) => result.text),
 *   Effect.retry({ times: 2, while: (error) => error.retryable }),
 *   Effect.catchTag("ProviderError", (error) => Effect.succeed(`The provider said ${error.code}`)),
 *   Effect.timeout("30 seconds"),
 * );
 * console.log(await Effect.runPromise(answer));
 * ```
 */
export function runAgentEffect<T extends AnyTool = AnyTool>(
  options: AgentOptions<T>,
): Effect.Effect<AgentResult<T>, AnySdkError> {
  return runEffect((signal) => runAgent(withFiberSignal(options, signal)));
}

/**
 * Runs an agent as a Stream of its events (`run-start`, `text-delta`, `tool-result`, …), started
 * each time the stream runs. A successful run ends with its `run-end` event; a failed run's end is
 * the stream's failure with its SdkError (the same union as {@link runAgentEffect}; its partial result
 * is `partialOf(error)`), after every event before it. A consumer that stops early — interrupted,
 * `Stream.take`, a failing sink — aborts the run and waits for it to settle, the upstream request
 * closed; the events already consumed are the partial answer.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect";
 * import { runAgentStreamEffect } from "wisp-agent/effect";
 *
 * const printed = runAgentStreamEffect({ model: "openai/gpt-5.5", apiKey, prompt: "A haiku" }).pipe(
 *   Stream.filter((event) => event.type === "text-delta"),
 *   Stream.runForEach((event) => Effect.sync(() => output.append(event.delta))),
 * );
 * await Effect.runPromise(printed);
 * ```
 */
export function runAgentStreamEffect<T extends AnyTool = AnyTool>(
  options: AgentOptions<T>,
): Stream.Stream<AgentEvent<T>, AnySdkError> {
  return streamEffect(() => runAgentStream(options));
}
