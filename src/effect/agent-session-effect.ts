/**
 * `createAgentSessionEffect`: an agent session as a scoped resource whose calls are Effects.
 *
 * @module
 */

import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Result } from "../agent/result.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import type { AnySdkError, ConfigError } from "../errors/sdk-error.ts";
import { type AgentSession, createAgentSession } from "../session/agent-session.ts";
import type { SessionOptions } from "../session/session-options.ts";
import { type AgentSessionEffect, sessionEffect } from "./session-methods.ts";

/** `createAgentSession`'s outcome as an Effect: its session, its ConfigError in the error channel, anything else a defect. */
function acquired<T extends AnyTool>(
  created: Result<AgentSession<T>, AnySdkError, undefined>,
): Effect.Effect<AgentSession<T>, ConfigError> {
  if (created.ok) return Effect.succeed(created.value);
  return created.error._tag === "ConfigError" ? Effect.fail(created.error) : Effect.die(created.error);
}

/**
 * Creates a session (new, or restored from a SessionState) acquired in the current `Scope`: when the
 * scope closes — the `Effect.scoped` block ends, succeeds, fails or is interrupted — the session is
 * closed (the run in flight aborted, `sessionEnd` hooks fired). Fails with the ConfigError
 * `createAgentSession`'s failed Result holds; the session's calls are Effects failing with Wisp's tagged
 * errors, a failed run's partial result in `partialOf(error)`.
 *
 * Interrupting `chat` or `resume` aborts that run and waits for it to settle; the session keeps the
 * aborted assistant message, so `session.export()` after the interruption holds the partial answer.
 *
 * @example
 * ```ts
 * import { Effect } from "effect";
 * import { createAgentSessionEffect } from "wisp-agent/effect";
 *
 * const state = await Effect.runPromise(
 *   Effect.scoped(
 *     Effect.gen(function* () {
 *       const session = yield* createAgentSessionEffect({ model: "anthropic/claude-sonnet-4-5", apiKey });
 *       const first = yield* session.chat("Plan the trip");
 *       console.log(first.text);
 *       return yield* session.export();
 *     }),
 *   ),
 * );
 * ```
 */
export function createAgentSessionEffect<T extends AnyTool = AnyTool>(
  options: SessionOptions<T>,
): Effect.Effect<AgentSessionEffect<T>, ConfigError, Scope.Scope> {
  const acquire = Effect.flatMap(
    Effect.promise(() => createAgentSession(options)),
    acquired,
  );
  const release = (session: AgentSession<T>) => Effect.promise(() => session.close());
  return Effect.map(Effect.acquireRelease(acquire, release), sessionEffect);
}
