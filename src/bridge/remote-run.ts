/**
 * A run in the worker, seen from the main thread: an `AgentRun` (events with `for await`, a
 * `result` that never rejects, `abort()`) fed by the port. It grants the worker credit as its
 * consumer takes events (see event-outbox.ts); before anyone iterates, events are credited as they
 * arrive, so awaiting only `result` never stalls the run. If the worker goes away, the run ends with
 * a `run-end` carrying a RequestError `BRIDGE_CLOSED` and what this run sent so far: its streamed
 * text, its messages and tool calls (the conversation before the run stays in the worker).
 *
 * @module
 */

import type {
  AgentEvent,
  AgentResult,
  AgentRun,
  AgentRunResult,
  ToolCallRecord,
} from "../agent/agent-events.ts";
import { notRunResult } from "../agent/not-run-result.ts";
import type { AnySdkError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import { EventQueue } from "../stream/event-queue.ts";
import type { Message, ToolCallPart } from "../types.ts";
import { addUsage, emptyUsage } from "../usage/usage.ts";

/**
 * `messages` with every tool call answered: calls the worker had not answered when it went away get a
 * "not run" result, so a partial result keeps the rule every conversation keeps.
 */
function answered(messages: Message[]): Message[] {
  const results = new Set<string>();
  for (const message of messages)
    if (message.role === "tool_result") for (const part of message.content) results.add(part.toolCallId);
  const open = messages.flatMap((message) =>
    message.role === "assistant"
      ? message.content.filter(
          (part): part is ToolCallPart => part.type === "tool_call" && !results.has(part.id),
        )
      : [],
  );
  if (open.length === 0) return messages;
  const content = open.map((call) => notRunResult(call, "the session's worker is gone"));
  return [...messages, { id: randomId(), role: "tool_result", content, timestamp: Date.now() }];
}

/** What a remote run needs from its connection. */
export interface RunLink {
  /** Lets `count` more events come. */
  credit(count: number): void;
  /** Aborts the run in the worker. */
  abort(reason: unknown): void;
  /** The run ended (its `run-end` arrived, or it failed here): forget it. */
  ended(): void;
}

/** Main-side end of one run. */
export class RemoteRun implements AgentRun {
  readonly result: Promise<AgentRunResult>;
  readonly #link: RunLink;
  readonly #window: number;
  readonly #queue: EventQueue<AgentEvent>;
  readonly #started = Date.now();
  #resolve: (result: AgentRunResult) => void = () => {};
  #done = false;
  #iterating = false;
  /** Events credited on arrival (before iteration began) that the consumer has not taken yet. */
  #creditedAhead = 0;
  #owed = 0;
  // What was seen, for the partial result of a run whose worker went away.
  readonly #seen: {
    provider: AgentResult["provider"];
    model: string;
    messages: Message[];
    toolCalls: ToolCallRecord[];
    turns: number;
    /** The text the turn in flight streamed so far. */
    turnText: string;
  } = {
    provider: "unknown",
    model: "",
    messages: [],
    toolCalls: [],
    turns: 0,
    turnText: "",
  };
  readonly #sessionId: string;

  constructor(sessionId: string, link: RunLink, window: number) {
    this.#sessionId = sessionId;
    this.#link = link;
    this.#window = window;
    this.#queue = new EventQueue<AgentEvent>(() => {
      this.#release();
      this.abort(new Error("The consumer stopped reading"));
    });
    this.result = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** An event from the worker. */
  receive(event: AgentEvent): void {
    if (this.#done) return;
    this.#note(event);
    if (!this.#iterating && this.#window > 0) {
      this.#creditedAhead++;
      this.#owe();
    }
    this.#queue.push(event);
    if (event.type === "run-end") this.#end(event.result);
  }

  #note(event: AgentEvent): void {
    const seen = this.#seen;
    if (event.type === "run-start") {
      seen.provider = event.provider;
      seen.model = event.model;
    } else if (event.type === "turn-start") {
      seen.turns++;
      seen.turnText = "";
    } else if (event.type === "text-delta") seen.turnText += event.delta;
    else if (event.type === "message") seen.messages.push(event.message);
    else if (event.type === "tool-result")
      seen.toolCalls.push({
        toolCall: event.toolCall,
        result: event.result,
        turn: seen.turns,
        durationMs: event.durationMs,
      });
  }

  /** One event's worth of credit is owed to the worker; it is paid in batches of half the window. */
  #owe(): void {
    this.#owed++;
    if (this.#owed >= Math.max(1, this.#window >> 1)) {
      this.#link.credit(this.#owed);
      this.#owed = 0;
    }
  }

  /**
   * Nobody reads any more: lets the worker send everything left, so its run-end is not stuck. Runs at
   * most once (the queue calls it when its open stream is given up, never after `#end` closed it).
   */
  #release(): void {
    if (this.#window > 0) this.#link.credit(Number.MAX_SAFE_INTEGER);
  }

  #end(result: AgentRunResult): void {
    this.#done = true;
    this.#queue.close();
    this.#link.ended();
    this.#resolve(result);
  }

  /** The worker is gone: the run ends with `error` and what was seen of it. */
  fail(error: AnySdkError): void {
    if (this.#done) return;
    const seen = this.#seen;
    const last = seen.messages.findLast((message) => message.role === "assistant");
    const finished =
      last?.role === "assistant"
        ? last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("")
        : "";
    const usage = seen.messages.reduce(
      (sum, message) => (message.role === "assistant" ? addUsage(sum, message.usage) : sum),
      emptyUsage(),
    );
    // The turn that was cut off counts if it streamed any text; otherwise the last finished answer.
    const partial: AgentResult = {
      text: seen.turnText !== "" ? seen.turnText : finished,
      messages: answered(seen.messages),
      toolCalls: seen.toolCalls,
      usage,
      provider: seen.provider,
      model: seen.model,
      sessionId: this.#sessionId,
      stopReason: "error",
      durationMs: Date.now() - this.#started,
      turns: seen.turns,
    };
    const result: AgentRunResult = { ok: false, error, partial };
    this.#queue.push({ type: "run-end", result });
    this.#end(result);
  }

  abort(reason?: unknown): void {
    if (!this.#done) this.#link.abort(reason);
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    const inner = this.#queue[Symbol.asyncIterator]();
    this.#iterating = true;
    return {
      next: async () => {
        const next = await inner.next();
        if (!next.done && this.#window > 0) {
          if (this.#creditedAhead > 0) this.#creditedAhead--;
          else this.#owe();
        }
        return next;
      },
      return: (value?: unknown) => inner.return?.(value) ?? Promise.resolve({ value: undefined, done: true }),
    };
  }
}
