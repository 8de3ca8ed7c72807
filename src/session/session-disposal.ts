/**
 * A session stopped: `abortSession` (the run in flight aborted, queued prompts dropped) and
 * `closeSession` (aborted for good, then `sessionEnd`).
 *
 * @module
 */

import { fireSessionEnd } from "../agent/start-run.ts";
import type { LiveState } from "./live-state.ts";
import { ignore } from "./pending-run.ts";
import { dropped, refusal } from "./session-refusals.ts";

/** Aborts the run in flight and drops queued prompts (their calls resolve ABORTED). Synchronous and idempotent. */
export function abortSession(state: LiveState, reason?: unknown): void {
  const why = reason ?? new DOMException("The session was aborted", "AbortError");
  state.aborts++;
  for (const pending of state.queue.splice(0)) {
    pending.unwatch?.();
    pending.resolve(refusal(state, dropped("aborted")));
  }
  state.steering.length = 0;
  state.current?.pending.controller.abort(why);
}

/**
 * Closes the session: aborts what runs, waits for it to end, and fires `sessionEnd` if `sessionStart`
 * did. Later calls fail with SESSION_CLOSED; closing again does nothing.
 */
export async function closeSession(state: LiveState): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  const current = state.current;
  abortSession(state, new DOMException("The session was closed", "AbortError"));
  const result = current === undefined ? undefined : await current.done;
  if (!state.started) return;
  const stopReason =
    result === undefined ? "complete" : result.ok ? result.value.stopReason : result.partial.stopReason;
  await fireSessionEnd(
    {
      sessionId: state.sessionId,
      messages: state.messages,
      turn: 0,
      hooks: state.config.hooks,
      emit: ignore,
    },
    stopReason,
  );
}
