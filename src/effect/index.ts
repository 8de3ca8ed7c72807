/**
 * Layer `modules` (docs/architecture.md): the subpath entries: bridge, effect, formats, mcp, testing.
 *
 * `wisp-agent/effect`: Wisp's agent runs and sessions as Effects (effect 4, an optional peer
 * dependency). The error channel is the union of Wisp's tagged errors, so `Effect.catchTag` and
 * `Effect.catchTags` narrow it; interrupting a fiber aborts its run; a session is a scoped resource.
 * Programs that do not import this entry carry none of it, nor any of `effect`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect";
 * import { runAgentEffect } from "wisp-agent/effect";
 *
 * const text = await Effect.runPromise(
 *   runAgentEffect({ model: "anthropic/claude-sonnet-4-5", apiKey, prompt: "Hi" }).pipe(
 *     Effect.map((result) => result.text),
 *     Effect.catchTag("AbortError", () => Effect.succeed("(stopped)")),
 *   ),
 * );
 * ```
 *
 * @module wisp-agent/effect
 */

export { createAgentSessionEffect } from "./agent-session-effect.ts";
export { partialOf } from "./partial-result.ts";
export { runAgentEffect, runAgentStreamEffect } from "./run-agent-effect.ts";
export type { AgentSessionEffect } from "./session-methods.ts";
