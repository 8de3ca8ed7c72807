/**
 * The way out of a pause for approval: `resumeRun` checks the decisions on the paused calls (and signs
 * the permissions they grant), then puts the resume at the head of the queue.
 *
 * @module
 */

import type { AgentEvent, AgentRunResult } from "../agent/agent-events.ts";
import { signPermissions } from "../agent/approval-digest.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import { type CheckedDecisions, checkDecisions } from "./check-decisions.ts";
import { checkReplies } from "./check-replies.ts";
import type { LiveState } from "./live-state.ts";
import { pendingRun } from "./pending-run.ts";
import { checkResumeOptions, type ResumeOptions } from "./session-options.ts";
import { busy, closedError, dropped, refusal } from "./session-refusals.ts";
import { startNext } from "./session-runs.ts";
import type { QueuedPrompt } from "./session-state.ts";

export type { ResumeOptions } from "./session-options.ts";

/**
 * Runs the decisions `input` on the calls that wait for approval, first of the queue. Refuses (and
 * runs nothing) when the session is closed or busy, the options or decisions are bad, or the session
 * was aborted or closed while they were checked. Never rejects.
 */
export async function resumeRun(
  state: LiveState,
  input: unknown,
  options: ResumeOptions,
  emit: (event: AgentEvent) => void,
  controller = new AbortController(),
): Promise<AgentRunResult> {
  if (state.closed) return refusal(state, closedError());
  const problem = checkResumeOptions(options);
  if (problem !== undefined) return refusal(state, problem);
  if (state.current !== undefined || state.resuming) return refusal(state, busy());
  state.resuming = true;
  const aborts = state.aborts;
  let checked: CheckedDecisions | ConfigError;
  try {
    const replies = checkReplies(input, state.paused, state.messages);
    checked =
      replies instanceof ConfigError
        ? replies
        : await checkDecisions(input, state.paused, state.messages, state.tools, state.permissions);
    if (!(checked instanceof ConfigError) && Array.isArray(replies) && replies.length > 0)
      checked.replies = replies;
    if (!(checked instanceof ConfigError) && state.approvalSecret !== undefined)
      checked.permissionsSignature = await signPermissions(
        state.sessionId,
        checked.permissions,
        state.approvalSecret,
      );
  } finally {
    state.resuming = false;
  }
  if (checked instanceof ConfigError || state.closed || state.aborts !== aborts) {
    startNext(state);
    const why = checked instanceof ConfigError ? checked : state.closed ? closedError() : dropped("aborted");
    return refusal(state, why);
  }
  const prompt: QueuedPrompt = { id: randomId(), content: [], queuedAt: Date.now() };
  const pending = pendingRun(prompt, options.signal, emit, controller);
  pending.resume = checked;
  if (options.output !== undefined) pending.output = options.output;
  if (options.traceParent !== undefined) pending.traceParent = options.traceParent;
  state.queue.unshift(pending);
  startNext(state);
  return pending.settled;
}
