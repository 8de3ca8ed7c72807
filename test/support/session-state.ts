/**
 * A minimal valid session state (version 2, an empty conversation, nothing pending) for tests that
 * restore or parse hand-built states; `fields` replace or add to it.
 */
import type { SessionState } from "../../src/index.ts";

/** No tokens used. */
export const NO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

/** An empty version-2 state of session "s" on anthropic/claude-sonnet-4-5, with `fields` over it. */
export function sessionState(fields: Partial<Record<keyof SessionState, unknown>> = {}): SessionState {
  return {
    version: 2,
    sessionId: "s",
    createdAt: 1,
    updatedAt: 1,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    parameters: {},
    messages: [],
    usage: NO_USAGE,
    turns: 0,
    queue: [],
    metadata: {},
    pendingApprovals: [],
    pendingResults: [],
    toolPermissions: {},
    ...fields,
  } as SessionState;
}
