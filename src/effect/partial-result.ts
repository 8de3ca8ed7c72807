/**
 * Where a failed run's partial result lives in the Effect API: beside its error, in a WeakMap, so the
 * error channel stays Wisp's own tagged errors (and `catchTag` narrows them) while nothing of the run
 * is lost.
 *
 * @module
 */

import * as Effect from "effect/Effect";
import type { AgentResult, AgentRunResult } from "../agent/agent-events.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";

const partials = new WeakMap<AnySdkError, AgentResult>();

/**
 * The partial result of the run that failed with `error`: the messages (the partial assistant message
 * last, with its stop reason), usage and tool calls it made before it failed. Undefined for an error
 * that did not end a run of this module (for example `createAgentSessionEffect`'s ConfigError).
 *
 * @example
 * ```ts
 * const program = runAgentEffect(options).pipe(
 *   Effect.catchTag("ProviderError", (error) => Effect.succeed(partialOf(error)?.text ?? "")),
 * );
 * ```
 */
export function partialOf<T extends AnyTool = AnyTool>(error: AnySdkError): AgentResult<T> | undefined {
  return partials.get(error) as AgentResult<T> | undefined;
}

/**
 * A run's Result as an Effect: `ok: true` succeeds with the value; `ok: false` fails with the error,
 * its partial result kept for {@link partialOf}.
 */
export function fromRunResult<T extends AnyTool>(
  result: AgentRunResult<T>,
): Effect.Effect<AgentResult<T>, AnySdkError> {
  if (result.ok) return Effect.succeed(result.value);
  partials.set(result.error, result.partial);
  return Effect.fail(result.error);
}
