/**
 * A session's runs, one at a time: a prompt started, steered into the run in flight or queued after
 * it (`submit`), the next queued run started (`startNext`), a finished run's leftovers queued, and
 * the queue handed back (`drainQueue`).
 *
 * @module
 */

import type { AgentEvent, AgentRunResult } from "../agent/agent-events.ts";
import { checkPromptInput } from "../agent/check-prompt.ts";
import { startRun } from "../agent/start-run.ts";
import { promptContent, userMessage } from "../agent/user-message.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import type { UserContentPart } from "../types.ts";
import { fork, forks } from "./branches.ts";
import type { LiveState } from "./live-state.ts";
import { ignore, type PendingRun, pendingRun } from "./pending-run.ts";
import type { ChatOptions } from "./session-options.ts";
import { checkChatOptions } from "./session-options.ts";
import { busy, closedError, dropped, refusal } from "./session-refusals.ts";
import type { QueuedPrompt } from "./session-state.ts";

/**
 * Runs a prompt when no run is in flight; else steers it into the run (`mode: "steer"`), queues it
 * after the run (`mode: "followUp"`) or refuses it. Resolves with the run's result; never rejects.
 */
export function submit(
  state: LiveState,
  input: string | UserContentPart[],
  options: ChatOptions,
  emit: (event: AgentEvent) => void,
  controller = new AbortController(),
): Promise<AgentRunResult> {
  if (state.closed) {
    return Promise.resolve(refusal(state, closedError()));
  }
  const problem = checkChatOptions(options) ?? checkPromptInput(input, options.attachments);
  if (problem !== undefined) return Promise.resolve(refusal(state, problem));
  const content = promptContent(input, options.attachments);
  if (options.id !== undefined && idInUse(state, options.id)) {
    const error = new ConfigError(
      `id ${options.id} is already a message's id in this session: each message needs its own`,
      { code: "CONFIG_INVALID", path: "id" },
    );
    return Promise.resolve(refusal(state, error));
  }
  if (state.resuming) return Promise.resolve(refusal(state, busy()));
  if (state.paused !== undefined && state.current === undefined) {
    const { approvals, questions = [] } = state.paused;
    const ids = [...approvals, ...questions].map((waiting) => waiting.toolCallId);
    const what = approvals.length > 0 ? "wait for approval" : "wait for the user's answers";
    const error = new ConfigError(
      `Tool calls ${what} (${ids.join(", ")}): decide them with resume() before sending a prompt`,
      { code: "APPROVAL_PENDING", details: { toolCallIds: ids } },
    );
    return Promise.resolve(refusal(state, error));
  }
  let unfork: (() => void) | undefined;
  if (forks(state, options.parentId)) {
    const made = fork(state, options.parentId ?? null);
    if (made instanceof ConfigError) return Promise.resolve(refusal(state, made));
    unfork = made;
  }
  if (state.current !== undefined) {
    if (options.mode === "steer" && options.output !== undefined) {
      const error = new ConfigError(
        "output cannot be given to a steered prompt: it joins the run in flight, whose output is set",
        { code: "CONFIG_INVALID", path: "output" },
      );
      return Promise.resolve(refusal(state, error));
    }
    if (options.mode === "steer") {
      const message = userMessage(content, options.id);
      state.steering.push(message);
      // Called off before the run takes it (the caller's signal, or a stream stopped): never sent.
      const stop = whenAborted([options.signal, controller.signal], () => {
        const index = state.steering.indexOf(message);
        if (index !== -1) state.steering.splice(index, 1);
      });
      void state.current.done.then(stop);
      return state.current.done;
    }
    if (options.mode !== "followUp") return Promise.resolve(refusal(state, busy()));
  }
  const pending = pendingRun(
    { id: options.id ?? randomId(), content, queuedAt: Date.now() },
    options.signal,
    emit,
    controller,
  );
  if (options.output !== undefined) pending.output = options.output;
  if (options.traceParent !== undefined) pending.traceParent = options.traceParent;
  if (unfork !== undefined) pending.unfork = unfork;
  state.queue.push(pending);
  watchQueued(state, pending);
  startNext(state);
  return pending.settled;
}

/** Whether `id` is taken: by a message of any branch, or a prompt queued or steering the run in flight. */
function idInUse(state: LiveState, id: string): boolean {
  const taken = (message: { id: string }) => message.id === id;
  return (
    state.messages.some(taken) ||
    state.branches.some((branch) => branch.messages.some(taken)) ||
    state.queue.some((pending) => pending.prompt.id === id) ||
    state.steering.some(taken)
  );
}

/**
 * Drops a queued prompt from the queue at once when its signal aborts before its run starts: its
 * call resolves ABORTED, and nothing of it reaches the conversation or the model.
 */
function watchQueued(state: LiveState, pending: PendingRun): void {
  if (state.current === undefined) return;
  // The caller's signal, or the stream's own controller (its abort(), a consumer that stops).
  pending.unwatch = whenAborted([pending.signal, pending.controller.signal], () => {
    const index = state.queue.indexOf(pending);
    if (index === -1) return;
    state.queue.splice(index, 1);
    pending.resolve(refusal(state, dropped("signal")));
  });
}

/** Starts the next queued run when none is in flight (while paused, only a resume). */
export function startNext(state: LiveState): void {
  if (state.current !== undefined || state.closed || state.resuming) return;
  const pending = state.queue[0];
  if (pending === undefined || (state.paused !== undefined && pending.resume === undefined)) return;
  state.queue.shift();
  pending.unwatch?.();
  const firstIndex = state.messages.length;
  const { resume } = pending;
  // A resume's own output, or the one its paused run had.
  const runOutput = resume === undefined ? pending.output : (pending.output ?? state.pausedOutput);
  let config = runOutput === undefined ? state.config : { ...state.config, output: runOutput };
  // The permission policy in force now (setPermissions changes it between runs).
  if (state.policy !== undefined) config = { ...config, permissions: state.policy.policy };
  const { telemetry } = config;
  if (telemetry !== undefined && pending.traceParent !== undefined)
    config = { ...config, telemetry: { ...telemetry, parent: pending.traceParent } };
  const done = startRun(
    {
      config,
      sessionId: state.sessionId,
      messages: state.messages,
      content: pending.prompt.content,
      promptId: pending.prompt.id,
      sessionStart: !state.started,
      sessionEnd: false,
      takeSteering: () => state.steering.splice(0),
      prefix: state.prefix,
      compaction: state.compaction,
      onCompaction: (compaction) => {
        state.compaction = compaction;
      },
      signal: pending.signal,
      resume:
        resume === undefined || state.paused === undefined
          ? undefined
          : { paused: state.paused, decisions: resume.decisions, replies: resume.replies ?? [] },
      permissions: resume?.permissions ?? state.permissions,
      approvalSecret: state.approvalSecret,
      sessionBudget: state.budgetForRun(),
      onPause: (paused) => {
        // A paused run's structured output applies again when it is resumed.
        state.pausedOutput = paused === undefined ? undefined : runOutput;
        if (resume !== undefined) {
          state.permissions = resume.permissions;
          state.permissionsSignature = resume.permissionsSignature;
        }
        state.setPaused(paused);
      },
    },
    (event) => {
      // Counted (and a fork its prompt never joined undone) before anyone hears the run ended, so
      // an export on run-end has the new totals and the conversation as it is.
      if (event.type === "run-end") {
        state.account(event.result);
        keepForkOnlyWithPrompt(state, pending, firstIndex);
      }
      pending.emit(event);
    },
    pending.controller,
  );
  state.started = true;
  state.current = { pending, done, firstIndex, accounted: false };
  void done.then((result) => finished(state, pending, result));
}

/**
 * A forked prompt that never reached the conversation (a hook stopped it, its run was aborted or
 * failed before it was sent) leaves the conversation as it was before the fork: else the active
 * branch would end where a stored branch goes on, a branch that could not be switched back to.
 */
function keepForkOnlyWithPrompt(state: LiveState, pending: PendingRun, firstIndex: number): void {
  if (state.messages.length === firstIndex) pending.unfork?.();
}

function finished(state: LiveState, pending: PendingRun, result: AgentRunResult): void {
  state.account(result);
  state.current = undefined;
  // Steered prompts that found no safe point before the run ended run next.
  const leftover = state.steering.splice(0);
  for (const message of leftover.reverse()) {
    state.queue.unshift(
      pendingRun(
        { id: message.id, content: message.content, queuedAt: message.timestamp },
        undefined,
        ignore,
      ),
    );
  }
  pending.resolve(result);
  startNext(state);
}

/**
 * Removes and returns the prompts queued for after the run (their calls resolve ABORTED) and the
 * prompts a restored state had queued.
 */
export function drainQueue(state: LiveState): QueuedPrompt[] {
  const drained = state.queue.splice(0);
  for (const pending of drained) {
    pending.unwatch?.();
    pending.resolve(refusal(state, dropped("drained")));
  }
  return [...state.held.splice(0), ...drained.map((pending) => pending.prompt)];
}

/**
 * Calls `then` once, when the first of `signals` aborts (at once if one already has); returns what
 * stops listening.
 */
function whenAborted(signals: readonly (AbortSignal | undefined)[], then: () => void): () => void {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const stop = (): void => {
    for (const signal of present) signal.removeEventListener("abort", fire);
  };
  const fire = (): void => {
    stop();
    then();
  };
  if (present.some((signal) => signal.aborted)) {
    then();
    return ignore;
  }
  for (const signal of present) signal.addEventListener("abort", fire, { once: true });
  return stop;
}
