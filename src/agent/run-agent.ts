/**
 * Layer `agent` (docs/architecture.md): the loop: runAgent, tools, hooks, approvals, budgets, the Result type.
 *
 * `runAgent` and `runAgentStream`: one prompt, run to the end as a session of its own — the
 * `sessionStart` hooks, the prompt, the turns and tools, the `sessionEnd` hooks — reported as a
 * Result that never throws, or as a stream of events with the Result at the end.
 *
 * @module
 */

import { checkOptions } from "../config/option-table.ts";
import { notAnObject } from "../config/unknown-option.ts";
import { messageOf } from "../errors/message-of.ts";
import { type ConfigError, HookError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import { EventQueue } from "../stream/event-queue.ts";
import type { AgentEvent, AgentRun, AgentRunResult } from "./agent-events.ts";
import { AGENT_OPTIONS } from "./agent-option-table.ts";
import type { AgentOptions } from "./agent-options.ts";
import { type RunRequest, startRun } from "./start-run.ts";
import type { AnyTool } from "./typed-tool-call.ts";
import { promptContent } from "./user-message.ts";

/** The first problem with options from any caller (plain JavaScript included), before reading them. */
function checkRunOptions(options: AgentOptions): ConfigError | undefined {
  return notAnObject(options, "runAgent's options") ?? checkOptions(AGENT_OPTIONS, options);
}

function requestOf(options: AgentOptions): RunRequest {
  const problem = checkRunOptions(options);
  if (problem !== undefined) {
    const config = { model: "" } as unknown as AgentOptions;
    const signal = (options as AgentOptions | null)?.signal;
    return {
      config,
      sessionId: randomId(),
      messages: [],
      content: [],
      sessionStart: false,
      sessionEnd: false,
      signal: signal instanceof AbortSignal ? signal : undefined,
      problem,
    };
  }
  return {
    config: options,
    sessionId: options.sessionId ?? randomId(),
    messages: [...(options.messages ?? [])],
    content: promptContent(options.prompt, options.attachments),
    sessionStart: true,
    sessionEnd: true,
    signal: options.signal,
    // Validated as a restored state's would be: a malformed conversation is a ConfigError, not a crash.
    // Loaded only when there is a conversation to check: programs that never pass `messages` do not
    // download the state's shape check at all.
    check:
      options.messages === undefined
        ? undefined
        : () => import("../state/check-messages.ts").then((module) => module.checkMessages(options.messages)),
  };
}

const ignore = (): void => {};

/** The caller's observer, when `onEvent` is a function (any other value is refused by the option check). */
function onEventOf(options: unknown): ((event: AgentEvent) => unknown) | undefined {
  const onEvent = (options as { onEvent?: unknown } | null)?.onEvent;
  return typeof onEvent === "function" ? (onEvent as (event: AgentEvent) => unknown) : undefined;
}

/**
 * Runs `request`, telling `onEvent` (the caller's observer, when given) each event before `emit`. A
 * throw from the observer (or a promise of its that rejects) before the run ends aborts the run,
 * which then fails with a HookError naming it, in `run-end` and the Result alike; once the run has
 * ended there is nothing left to stop, and the Result stands.
 */
async function observedRun(
  request: RunRequest,
  onEvent: ((event: AgentEvent) => unknown) | undefined,
  emit: (event: AgentEvent) => void,
  controller: AbortController,
): Promise<AgentRunResult> {
  let failed: HookError | undefined;
  let ended = false;
  const fail = (cause: unknown): void => {
    if (failed || ended) return;
    failed = new HookError(`onEvent threw: ${messageOf(cause)}`, {
      code: "HOOK_FAILED",
      details: { hook: "onEvent" },
      cause,
    });
    controller.abort(failed);
  };
  let settled: AgentRunResult | undefined;
  // The run's own error stands unless it is the abort the observer caused.
  const settle = (result: AgentRunResult): AgentRunResult =>
    (settled ??=
      failed && (result.ok || result.error.code === "ABORTED")
        ? { ok: false, error: failed, partial: result.ok ? result.value : result.partial }
        : result);
  return startRun(
    request,
    (event) => {
      if (event.type === "run-end") {
        ended = true;
        event = { type: "run-end", result: settle(event.result) };
      }
      try {
        (onEvent?.(event) as Promise<unknown> | undefined)?.catch?.(fail);
      } catch (cause) {
        fail(cause);
      }
      emit(event);
    },
    controller,
  ).then(settle);
}

/**
 * Runs an agent to the end and resolves with its Result. Never throws: a failure (bad options,
 * provider error, abort, budget) is `{ ok: false, error, partial }`, where `partial` holds the
 * messages, usage and tool calls of the run so far.
 *
 * @example
 * ```ts
 * const result = await runAgent({ model: "anthropic/claude-sonnet-5-5", apiKey, prompt: "Weather in Oslo?", tools: [weather] });
 * if (result.ok) console.log(result.value.text, result.value.usage.costUsd);
 * else console.error(result.error.code, result.error.message);
 * ```
 */
export function runAgent<T extends AnyTool = AnyTool, O = unknown>(
  options: AgentOptions<T, O>,
): Promise<AgentRunResult<T, O>> {
  // The loop is untyped; the tool calls it records are the tools' own, typed by `T` (see TypedToolCall).
  const request = requestOf(options as AgentOptions);
  return observedRun(request, onEventOf(options), ignore, new AbortController()) as Promise<
    AgentRunResult<T, O>
  >;
}

/** Wraps a run in an event stream: iterate it once; breaking out of the loop aborts the run. */
export function streamRun(
  start: (emit: (event: AgentEvent) => void, controller: AbortController) => Promise<AgentRunResult>,
): AgentRun {
  const controller = new AbortController();
  const queue = new EventQueue<AgentEvent>(() =>
    controller.abort(new DOMException("The consumer stopped reading the run", "AbortError")),
  );
  let ended = false;
  const emit = (event: AgentEvent) => {
    if (event.type === "run-end") ended = true;
    queue.push(event);
  };
  // A run refused before it began (a bad option, a busy or paused session) still ends with run-end.
  const result = start(emit, controller)
    .then((settled) => {
      if (!ended) queue.push({ type: "run-end", result: settled });
      return settled;
    })
    .finally(() => queue.close());
  return {
    result,
    abort: (reason?: unknown) =>
      controller.abort(reason ?? new DOMException("The run was aborted", "AbortError")),
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}

/**
 * Runs an agent and streams its events. Iterate it once with `for await`; breaking out of the loop
 * aborts the run. `.result` resolves with the same Result `runAgent` gives, iterated or not.
 *
 * @example
 * ```ts
 * const run = runAgentStream({ model: "openai/gpt-5.5", apiKey, prompt: "Hi", signal: AbortSignal.timeout(30_000) });
 * for await (const event of run) if (event.type === "text-delta") output.append(event.delta);
 * const result = await run.result;
 * ```
 */
export function runAgentStream<T extends AnyTool = AnyTool, O = unknown>(
  options: AgentOptions<T, O>,
): AgentRun<T, O> {
  const request = requestOf(options as AgentOptions);
  const onEvent = onEventOf(options);
  return streamRun((emit, controller) => observedRun(request, onEvent, emit, controller)) as AgentRun<T, O>;
}
