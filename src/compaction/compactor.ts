/**
 * Layer `compaction` (docs/architecture.md): summaries that stand for older messages in requests (loaded on demand).
 *
 * Compaction, loaded only by runs that ask for it (`compaction` option): when the next request would
 * pass the threshold — or the provider refused a request's length (CONTEXT_LENGTH) — the older
 * messages are summarized by the model into a summary that stands for them in later requests. The
 * messages themselves stay in the session (see compaction-state.ts). A summary never splits a tool
 * call from its result: the messages kept start at a user message, or at an assistant message right
 * after tool results, so every call and its result (and thinking with its signature) stay together.
 *
 * @module
 */

import type { AnySdkError } from "../errors/sdk-error.ts";
import { textOf } from "../message/message-text.ts";
import { randomId } from "../message/random-id.ts";
import type { streamTurn } from "../stream/stream-turn.ts";
import type { TurnOptions } from "../stream/turn-options.ts";
import type { Telemetry } from "../telemetry/telemetry-options.ts";
import type { AssistantMessage, Message, ModelRequest, Usage } from "../types.ts";
import type { addUsage } from "../usage/usage.ts";
import type { CompactionOptions } from "./compaction-options.ts";
import {
  type CompactionEvent,
  type CompactionReason,
  type CompactionState,
  requestMessages,
} from "./compaction-state.ts";
import { contextWindowOf } from "./context-windows.ts";

/**
 * What compaction reads and changes of a run: the agent loop's run context is one (compaction is below
 * the loop, so it names what it needs here instead of importing the loop's types).
 */
export interface CompactionRun {
  readonly sessionId: string;
  readonly signal: AbortSignal;
  /** The conversation; compaction never changes it (the summary is an overlay). */
  readonly messages: Message[];
  /** Model turns made so far in this run. */
  readonly turn: number;
  /** The summary that stands for older messages in requests, once there is one. */
  compaction?: CompactionState;
  /** Told of each new compaction (a session keeps it). */
  onCompaction?: (state: CompactionState) => void;
  emit(event: CompactionEvent): void;
  /** With a `telemetry` option: the telemetry a model call of the run is traced with (its parent the run's span). */
  readonly trace?: { childTelemetry(): Telemetry };
}

/** What compaction reads of the run's request: its size besides the messages, and how to reach the model. */
interface CompactionSetup {
  request: Pick<ModelRequest, "systemPrompt" | "tools">;
  turnOptions: Omit<TurnOptions, "signal" | "onEvent">;
}

/** Where a summary's cost is added. */
interface CompactionTally {
  usage: Usage;
}

/** What a `preCompact` hook is told. */
interface PreCompactInput {
  sessionId: string;
  messages: readonly Message[];
  turn: number;
  older: readonly Message[];
  reason: CompactionReason;
  tokens: number;
}

/** What the `preCompact` hooks answered: go on (with their own summary, or skipping), or not at all. */
interface PreCompactOutcome {
  kind: string;
  summary?: string;
  skip?: true;
}

/**
 * What the compactor uses from the rest of the run, handed over by the run (not imported), so this
 * module, loaded on demand, shares no code with programs that never compact.
 */
export interface CompactorDeps<R extends CompactionRun> {
  /** Runs the run's `preCompact` hooks. */
  preCompact: (run: R, input: PreCompactInput) => Promise<PreCompactOutcome>;
  streamTurn: typeof streamTurn;
  addUsage: typeof addUsage;
}

/** What the loop calls, for runs of type `R`. */
export interface Compactor<R extends CompactionRun = CompactionRun> {
  /** With `native` on an API that has its own: what the request asks of it (Wisp then compacts only on refusal). */
  native?: { threshold?: number; instructions?: string };
  /** Before a turn: compacts when the request would pass the threshold. */
  beforeTurn(run: R, setup: CompactionSetup, tally: CompactionTally): Promise<void>;
  /** After the provider refused the request's length: compacts; true when it did (send the turn again). */
  afterContextLength(run: R, setup: CompactionSetup, tally: CompactionTally): Promise<boolean>;
}

const INSTRUCTIONS =
  "Summarize the conversation above for an assistant who will continue it without seeing it. Keep: what the user asked for and every requirement or preference they stated; decisions made and why; facts learned from tool results (names, numbers, paths, identifiers) that later work needs; what was done, what failed, and what remains to do. Write plain text, as compact as is complete.";

/** Longest text one part of a message takes in the transcript to summarize. */
const PART_LIMIT = 4000;

/** Tokens in `text`, roughly (four characters a token). */
const tokensIn = (text: string): number => Math.ceil(text.length / 4);

const cut = (text: string): string =>
  text.length <= PART_LIMIT
    ? text
    : `${text.slice(0, PART_LIMIT)} […${text.length - PART_LIMIT} characters cut]`;

/** The messages as a plain-text transcript, which every provider can summarize (no tool definitions needed). */
function transcript(messages: readonly Message[], earlier: string | undefined): string {
  const lines: string[] = earlier === undefined ? [] : [`[Summary of what came before]\n${earlier}`];
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === "text")
        lines.push(`${message.role === "user" ? "User" : "Assistant"}: ${cut(part.text)}`);
      else if (part.type === "image") lines.push(`${message.role === "user" ? "User" : "Tool"}: [an image]`);
      else if (part.type === "tool_call")
        lines.push(`Assistant called ${part.name}: ${cut(JSON.stringify(part.args))}`);
      else if (part.type === "tool_result")
        lines.push(
          `${part.toolName ?? "The tool"} ${part.isError ? "failed" : "returned"}: ${cut(part.output)}`,
        );
    }
  }
  return lines.join("\n\n");
}

/**
 * The estimated size of the next request: the last reply's reported prompt and output, plus what came
 * after — or, when that reply is older than the latest compaction (its figures are of the longer
 * request), an estimate of the whole text.
 */
function requestTokens(messages: readonly Message[], setup: CompactionSetup, compactedAt = 0): number {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== "assistant") index--;
  const reply = messages[index] as AssistantMessage | undefined;
  const usage = reply !== undefined && reply.timestamp >= compactedAt ? reply.usage : undefined;
  const { input, cacheRead, cacheWrite, output } = usage ?? {
    input: 0,
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
  };
  const reported = input + cacheRead + cacheWrite + output;
  const base =
    reported > 0
      ? reported
      : tokensIn(`${setup.request.systemPrompt ?? ""}${JSON.stringify(setup.request.tools ?? [])}`) +
        tokensIn(JSON.stringify(messages.slice(0, index + 1)));
  return base + tokensIn(JSON.stringify(messages.slice(index + 1)));
}

/**
 * Where the kept messages start: the latest boundary (a user message, or an assistant message right
 * after tool results) with at least `keepTurns` assistant messages from it on, past `from`. -1: none.
 */
function boundary(messages: readonly Message[], from: number, keepTurns: number): number {
  let replies = 0;
  for (let index = messages.length - 1; index > from; index--) {
    const message = messages[index] as Message;
    if (message.role === "assistant") replies++;
    const opens =
      message.role === "user" ||
      (message.role === "assistant" && messages[index - 1]?.role === "tool_result");
    if (opens && replies >= keepTurns) return index;
  }
  return -1;
}

/**
 * Prepares compaction for a run on `model` (its name without the provider). The options were checked
 * with the run's (compaction-options.ts).
 */
export function createCompactor<R extends CompactionRun>(
  option: CompactionOptions | true,
  model: string,
  provider: string,
  { preCompact, streamTurn, addUsage }: CompactorDeps<R>,
): Compactor<R> {
  const options = option === true ? {} : option;
  const window = contextWindowOf(model);
  const threshold =
    options.maxTokens ?? (window === undefined ? undefined : window * (options.fraction ?? 0.8));
  const keepTurns = options.keepTurns ?? 2;

  const compact = async (
    run: R,
    setup: CompactionSetup,
    tally: CompactionTally,
    reason: CompactionReason,
    turn: number,
  ) => {
    const messages = run.messages;
    const start =
      run.compaction === undefined ? -1 : messages.findIndex((m) => m.id === run.compaction?.firstKeptId);
    const first = boundary(messages, Math.max(start, 0), keepTurns);
    if (first === -1) return false;
    const older = messages.slice(Math.max(start, 0), first);
    const tokens = requestTokens(requestMessages(messages, run.compaction), setup, run.compaction?.at);
    const hook = await preCompact(run, {
      sessionId: run.sessionId,
      messages,
      turn: run.turn,
      older,
      reason,
      tokens,
    });
    if (hook.kind !== "go" || hook.skip) return false;
    let summary = hook.summary;
    if (summary === undefined) {
      const request = `${transcript(older, run.compaction?.summary)}\n\n${options.instructions ?? INSTRUCTIONS}`;
      const ask: Message = {
        id: randomId(),
        role: "user",
        content: [{ type: "text", text: request }],
        timestamp: Date.now(),
      };
      let failure: AnySdkError | undefined;
      const call = streamTurn(
        { messages: [ask], maxTokens: 4096, cache: false },
        {
          ...setup.turnOptions,
          // Traced runs trace the summary's request too: a `chat` span under the run's (tokens spent).
          ...(run.trace === undefined ? {} : { telemetry: run.trace.childTelemetry() }),
          signal: run.signal,
          onEvent: (event) => {
            if (event.type === "error") failure = event.error;
          },
        },
      );
      const message = await call.message;
      tally.usage = addUsage(tally.usage, message.usage);
      const text = textOf(message).trim();
      if (failure !== undefined || text === "") {
        run.emit({
          type: "compaction",
          turn,
          reason,
          summarized: 0,
          tokens,
          usage: message.usage,
          ...(failure ? { error: failure } : {}),
        });
        return false;
      }
      summary = text;
      run.emit({
        type: "compaction",
        turn,
        reason,
        summarized: older.length,
        tokens,
        usage: message.usage,
      });
    } else run.emit({ type: "compaction", turn, reason, summarized: older.length, tokens });
    const state: CompactionState = { summary, firstKeptId: (messages[first] as Message).id, at: Date.now() };
    run.compaction = state;
    run.onCompaction?.(state);
    return true;
  };

  const native =
    options.native === true && (provider === "anthropic" || provider === "openai-responses")
      ? {
          ...(threshold === undefined ? {} : { threshold: Math.round(threshold) }),
          ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        }
      : undefined;
  return {
    ...(native === undefined ? {} : { native }),
    async beforeTurn(run, setup, tally) {
      if (threshold === undefined || native !== undefined) return;
      // Not again until `keepTurns` (at least 2) replies came since the last compaction: when the kept
      // turns alone pass the threshold, a summary every turn would cost without helping.
      const since = run.compaction?.at;
      if (since !== undefined) {
        let replies = 0;
        for (const message of run.messages)
          if (message.role === "assistant" && message.timestamp >= since) replies++;
        if (replies < Math.max(2, keepTurns)) return;
      }
      const tokens = requestTokens(requestMessages(run.messages, run.compaction), setup, run.compaction?.at);
      if (tokens <= threshold) return;
      await compact(run, setup, tally, "threshold", run.turn + 1);
    },
    afterContextLength: (run, setup, tally) => compact(run, setup, tally, "context-length", run.turn),
  };
}
