/**
 * `runAgent` and `runAgentStream`: one prompt, run to the end as a session of its own — the
 * `sessionStart` hooks, the prompt, the turns and tools, the `sessionEnd` hooks — reported as a
 * Result that never throws, or as a stream of events with the Result at the end.
 *
 * @module
 */

import { classifyThrown } from "../errors/classify.ts";
import { isSdkError, type SdkError } from "../errors/sdk-error.ts";
import { resolveModel } from "../providers/registry.ts";
import { EventQueue } from "../stream/event-queue.ts";
import type { AssistantMessage, Message, ProviderId } from "../types.ts";
import { emptyUsage } from "../usage/usage.ts";
import type { AgentEvent, AgentResult, AgentRun, AgentRunResult } from "./agent-events.ts";
import type { LoopTally } from "./agent-loop.ts";
import { type AgentOptions, DEFAULT_TOOL_TIMEOUT_MS } from "./agent-options.ts";
import { checkConfig, checkPrompt } from "./check-config.ts";
import { endFrom, type LoopEnd } from "./loop-end.ts";
import { loopSetup, toolsByName } from "./loop-setup.ts";
import type { RunContext } from "./run-context.ts";
import { runHooks } from "./run-hooks.ts";
import { contextParts, runPrompt } from "./run-prompt.ts";
import { promptContent } from "./user-message.ts";

/** The text of the last assistant message among `messages`. */
export function lastAssistantText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role !== "assistant") continue;
    return (message as AssistantMessage).content
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("");
  }
  return "";
}

interface Identity {
  sessionId: string;
  provider: ProviderId | "unknown";
  model: string;
  started: number;
}

function agentResult(identity: Identity, run: RunContext, tally: LoopTally, end: LoopEnd): AgentRunResult {
  const value: AgentResult = {
    text: lastAssistantText(run.messages),
    messages: run.messages,
    toolCalls: tally.toolCalls,
    usage: tally.usage,
    provider: identity.provider,
    model: identity.model,
    sessionId: identity.sessionId,
    stopReason: end.stopReason,
    durationMs: Date.now() - identity.started,
    turns: run.turn,
  };
  if (end.stopDetail !== undefined) value.stopDetail = end.stopDetail;
  return end.error === undefined ? { ok: true, value } : { ok: false, error: end.error, partial: value };
}

/** Runs one agent session to its end. Everything after the model resolves goes through `run`. */
async function execute(
  options: AgentOptions,
  run: RunContext,
  identity: Identity,
  tally: LoopTally,
): Promise<LoopEnd> {
  const resolved = resolveModel(options.model, options.provider);
  identity.provider = resolved.provider.id;
  identity.model = resolved.model;
  const content = promptContent(options.prompt, options.attachments);
  const problem = checkConfig(options, resolved.model) ?? checkPrompt(content);
  if (problem !== undefined) return { stopReason: "error", error: problem };
  run.emit({
    type: "run-start",
    sessionId: run.sessionId,
    provider: resolved.provider.id,
    model: resolved.model,
  });
  const setup = loopSetup(options);
  const base = { sessionId: run.sessionId, messages: run.messages, turn: 0 };
  const start = await runHooks("sessionStart", base, run);
  const ended = endFrom(start, run.signal);
  if (ended !== undefined) return ended;
  const context = start.kind === "go" ? contextParts(start.context) : [];
  return runPrompt(run, setup, tally, [...context, ...content]);
}

/** Runs a session: returns its Result and emits its events through `emit`. */
function startRun(
  options: AgentOptions,
  emit: (event: AgentEvent) => void,
  controller: AbortController,
): Promise<AgentRunResult> {
  const userSignal = options.signal;
  const forward = (): void => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) controller.abort(userSignal.reason);
  else userSignal?.addEventListener("abort", forward, { once: true });
  const identity: Identity = {
    sessionId: options.sessionId ?? crypto.randomUUID(),
    provider: "unknown",
    model: options.model,
    started: Date.now(),
  };
  const run: RunContext = {
    sessionId: identity.sessionId,
    signal: controller.signal,
    emit,
    hooks: options.hooks,
    messages: [...(options.messages ?? [])],
    turn: 0,
    tools: toolsByName(options),
    toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    sequentialTools: options.toolExecution === "sequential",
  };
  const tally: LoopTally = { usage: emptyUsage(), toolCalls: [] };
  const finish = async (end: LoopEnd): Promise<AgentRunResult> => {
    userSignal?.removeEventListener("abort", forward);
    if (identity.provider !== "unknown") {
      // sessionEnd runs even after an abort, under its own timeout only.
      const endRun = { ...run, signal: new AbortController().signal };
      await runHooks(
        "sessionEnd",
        { sessionId: run.sessionId, messages: run.messages, turn: run.turn, stopReason: end.stopReason },
        endRun,
      );
    }
    const result = agentResult(identity, run, tally, end);
    emit({ type: "run-end", result });
    return result;
  };
  return execute(options, run, identity, tally).then(finish, (thrown: unknown) => {
    const error: SdkError = isSdkError(thrown)
      ? thrown
      : classifyThrown(thrown, { signal: controller.signal, provider: identity.provider });
    return finish({ stopReason: controller.signal.aborted ? "aborted" : "error", error });
  });
}

const ignore = (): void => {};

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
export function runAgent(options: AgentOptions): Promise<AgentRunResult> {
  return startRun(options, ignore, new AbortController());
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
export function runAgentStream(options: AgentOptions): AgentRun {
  const controller = new AbortController();
  const queue = new EventQueue<AgentEvent>(() =>
    controller.abort(new DOMException("The consumer stopped reading the run", "AbortError")),
  );
  const result = startRun(options, (event) => queue.push(event), controller).finally(() => queue.close());
  return {
    result,
    abort: (reason?: unknown) =>
      controller.abort(reason ?? new DOMException("The run was aborted", "AbortError")),
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}
