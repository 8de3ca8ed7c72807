/**
 * The main side of one bridged run (src/bridge/remote-run.ts), driven directly with a recording link
 * instead of a port: flow control (credit granted as events arrive before anyone iterates, in batches
 * of half the window, never twice for one event, none at all for a quiet run, everything released when
 * the consumer stops reading), the end of a run (later events, failures and aborts are ignored), and
 * the partial result of a run whose worker went away (what was seen of it, open tool calls answered
 * "not run"). The same run over a real MessageChannel is in bridge.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent, AgentRunResult } from "../../src/agent/agent-events.ts";
import { RemoteRun } from "../../src/bridge/remote-run.ts";
import { RequestError } from "../../src/errors/sdk-error.ts";
import type { AssistantMessage, Message, ToolCallPart, ToolResultPart } from "../../src/types.ts";
import { emptyUsage } from "../../src/usage/usage.ts";

afterEach(() => {
  vi.useRealTimers();
});

/** A run on a link that records what the run asked of the connection. */
function remoteRun(window: number) {
  const credits: number[] = [];
  const aborts: unknown[] = [];
  const link = { credits, aborts, ended: 0 };
  const run = new RemoteRun(
    "session-1",
    {
      credit: (count) => credits.push(count),
      abort: (reason) => aborts.push(reason),
      ended: () => {
        link.ended++;
      },
    },
    window,
  );
  return { run, link };
}

const delta = (text: string): AgentEvent => ({ type: "text-delta", index: 0, delta: text });
const turnStart = (turn: number): AgentEvent => ({
  type: "turn-start",
  turn,
  provider: "anthropic",
  model: "claude-test",
});
const message = (value: Message): AgentEvent => ({ type: "message", message: value });

function finishedRun(text: string): AgentRunResult {
  return {
    ok: true,
    value: {
      text,
      messages: [],
      toolCalls: [],
      usage: emptyUsage(),
      provider: "anthropic",
      model: "claude-test",
      sessionId: "session-1",
      stopReason: "complete",
      durationMs: 1,
      turns: 1,
    },
  };
}

const runEnd = (result: AgentRunResult): AgentEvent => ({ type: "run-end", result });

function toolCall(id: string): ToolCallPart {
  return { type: "tool_call", id, name: "look", args: { id } };
}

function toolResult(id: string): ToolResultPart {
  return { type: "tool_result", toolCallId: id, toolName: "look", output: `found ${id}`, isError: false };
}

function assistant(content: AssistantMessage["content"]): AssistantMessage {
  return {
    id: "assistant-1",
    role: "assistant",
    content,
    timestamp: 1,
    provider: "anthropic",
    model: "claude-test",
    usage: { ...emptyUsage(), input: 10, output: 5 },
    stopReason: "toolUse",
  };
}

const gone = () =>
  new RequestError("The session's worker is gone: the port was closed", { code: "BRIDGE_CLOSED" });

describe("a remote run's flow control", () => {
  it("credits events as they arrive before anyone iterates, in batches of half the window", () => {
    const { run, link } = remoteRun(4);
    for (const text of ["a", "b", "c", "d", "e"]) run.receive(delta(text));
    expect(link.credits).toEqual([2, 2]);
  });

  it("credits each event once: those credited on arrival are not credited again when taken", async () => {
    const { run, link } = remoteRun(2);
    run.receive(delta("a"));
    run.receive(delta("b"));
    expect(link.credits).toEqual([1, 1]);
    const events = run[Symbol.asyncIterator]();
    await events.next();
    await events.next();
    expect(link.credits).toEqual([1, 1]);
    // Once the consumer iterates, an event is credited when it is taken, not when it arrives.
    run.receive(delta("c"));
    expect(link.credits).toEqual([1, 1]);
    expect(await events.next()).toEqual({ value: delta("c"), done: false });
    expect(link.credits).toEqual([1, 1, 1]);
    run.receive(runEnd(finishedRun("abc")));
    await events.next();
    expect(link.credits).toEqual([1, 1, 1, 1]);
    // The end of the stream is not an event: no credit for it.
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(link.credits).toEqual([1, 1, 1, 1]);
  });

  it("never grants credit to a quiet run (window 0): not on arrival, not when taken, not when the consumer stops", async () => {
    const { run, link } = remoteRun(0);
    run.receive(delta("a"));
    run.receive(delta("b"));
    const events = run[Symbol.asyncIterator]();
    expect(await events.next()).toEqual({ value: delta("a"), done: false });
    await events.return?.();
    expect(link.credits).toEqual([]);
    expect(link.aborts).toHaveLength(1);
  });

  it("lets the worker send everything left and aborts the run when the consumer stops reading", async () => {
    const { run, link } = remoteRun(2);
    const taken: AgentEvent[] = [];
    const reading = (async () => {
      for await (const event of run) {
        taken.push(event);
        break;
      }
    })();
    run.receive(delta("a"));
    await reading;
    expect(taken).toEqual([delta("a")]);
    expect(link.credits).toEqual([1, Number.MAX_SAFE_INTEGER]);
    expect(link.aborts).toHaveLength(1);
    expect(link.aborts[0]).toMatchObject({ message: "The consumer stopped reading" });
    expect(link.ended).toBe(0);
  });
});

describe("a remote run that has ended", () => {
  it("ignores later events, failures and aborts, and tells the link it ended once", async () => {
    const { run, link } = remoteRun(2);
    const finished = finishedRun("done");
    run.receive(runEnd(finished));
    expect(link.credits).toEqual([1]);
    expect(link.ended).toBe(1);
    run.receive(delta("late"));
    run.receive(runEnd(finishedRun("again")));
    run.fail(gone());
    run.abort(new Error("too late"));
    expect(link.credits).toEqual([1]);
    expect(link.ended).toBe(1);
    expect(link.aborts).toEqual([]);
    expect(await run.result).toBe(finished);
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events).toEqual([runEnd(finished)]);
  });

  it("still passes an abort on while it runs", () => {
    const { run, link } = remoteRun(2);
    run.receive(delta("a"));
    run.abort("stop");
    expect(link.aborts).toEqual(["stop"]);
  });
});

describe("a remote run whose worker went away", () => {
  it("ends with an empty partial result when nothing arrived, timed from its start", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const { run, link } = remoteRun(2);
    vi.setSystemTime(1_000_250);
    const error = gone();
    run.fail(error);
    const result = await run.result;
    expect(result).toEqual({
      ok: false,
      error,
      partial: {
        text: "",
        messages: [],
        toolCalls: [],
        usage: emptyUsage(),
        provider: "unknown",
        model: "",
        sessionId: "session-1",
        stopReason: "error",
        durationMs: 250,
        turns: 0,
      },
    });
    expect(link.ended).toBe(1);
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events).toEqual([runEnd(result)]);
  });

  it("keeps what was seen, takes the last finished answer's text and answers its open tool calls", async () => {
    const { run } = remoteRun(0);
    const answer = assistant([
      { type: "text", text: "Looking" },
      toolCall("call-1"),
      { type: "text", text: " it up" },
      toolCall("call-2"),
    ]);
    const results: Message = {
      id: "results-1",
      role: "tool_result",
      content: [toolResult("call-1")],
      timestamp: 2,
    };
    run.receive({ type: "run-start", sessionId: "session-1", provider: "anthropic", model: "claude-test" });
    run.receive(turnStart(1));
    run.receive(delta("Looking"));
    run.receive(message(answer));
    run.receive({
      type: "tool-result",
      toolCall: toolCall("call-1"),
      result: toolResult("call-1"),
      durationMs: 5,
    });
    run.receive(message(results));
    // The next turn was cut off before it streamed any text.
    run.receive(turnStart(2));
    run.fail(gone());
    const result = await run.result;
    if (result.ok) throw new Error("the run should have failed");
    const { partial } = result;
    expect(partial).toMatchObject({
      text: "Looking it up",
      provider: "anthropic",
      model: "claude-test",
      turns: 2,
      stopReason: "error",
      usage: { ...emptyUsage(), input: 10, output: 5 },
      toolCalls: [{ toolCall: toolCall("call-1"), result: toolResult("call-1"), turn: 1, durationMs: 5 }],
    });
    expect(partial.messages).toHaveLength(3);
    expect(partial.messages.slice(0, 2)).toEqual([answer, results]);
    expect(partial.messages[2]).toMatchObject({
      role: "tool_result",
      content: [
        {
          type: "tool_result",
          toolCallId: "call-2",
          toolName: "look",
          output: "Tool call not run: the session's worker is gone",
          isError: true,
        },
      ],
    });
  });

  it("takes the text the cut-off turn streamed so far over the last finished answer", async () => {
    const { run } = remoteRun(0);
    run.receive(turnStart(1));
    run.receive(message(assistant([{ type: "text", text: "First answer" }])));
    run.receive(turnStart(2));
    run.receive(delta("Half"));
    run.receive(delta(" an answer"));
    run.fail(gone());
    const result = await run.result;
    expect(result).toMatchObject({ ok: false, partial: { text: "Half an answer", turns: 2 } });
  });

  it("leaves a conversation whose calls are all answered as it was", async () => {
    const { run } = remoteRun(0);
    const answer = assistant([{ type: "text", text: "Checked." }, toolCall("call-1")]);
    const results: Message = {
      id: "results-1",
      role: "tool_result",
      content: [toolResult("call-1")],
      timestamp: 2,
    };
    run.receive(message(answer));
    run.receive(message(results));
    run.fail(gone());
    const result = await run.result;
    expect(result).toMatchObject({ ok: false, partial: { text: "Checked.", messages: [answer, results] } });
  });
});
