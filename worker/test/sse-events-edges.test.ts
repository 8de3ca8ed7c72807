/**
 * What the browser receives for each AgentEvent (worker/sse-events.ts): the SSE event names and
 * fields for the run, turn, thinking, tool-call, approval, question, retry and usage events; and the
 * bytes of a frame, with its `id` line only when given and U+2028 / U+2029 escaped in the data.
 */

import { describe, expect, it } from "vitest";
import type { AgentEvent } from "wisp-agent";
import { sseEventOf, sseFrame } from "../sse-events.ts";

/** The wire form of an AgentEvent: its SSE event as the client parses it (JSON drops undefined). */
function onWire(event: object): unknown {
  const sse = sseEventOf(event as AgentEvent);
  return sse === undefined ? undefined : { event: sse.event, data: JSON.parse(JSON.stringify(sse.data)) };
}

const usage = { input: 12, output: 34, cacheRead: 5, cacheWrite: 6, reasoning: 7 };

describe("sseEventOf", () => {
  it("names the session and the provider-qualified model at run-start", () => {
    expect(onWire({ type: "run-start", sessionId: "s-1", provider: "anthropic", model: "claude-x" })).toEqual(
      {
        event: "run-start",
        data: { sessionId: "s-1", model: "anthropic/claude-x" },
      },
    );
  });

  it("numbers each turn", () => {
    expect(onWire({ type: "turn-start", turn: 3, provider: "openai", model: "gpt-x" })).toEqual({
      event: "turn-start",
      data: { turn: 3 },
    });
  });

  it("passes reasoning text on", () => {
    expect(onWire({ type: "thinking-delta", index: 0, delta: "Let me see" })).toEqual({
      event: "thinking-delta",
      data: { delta: "Let me see" },
    });
  });

  it("shows a tool call's id, name and arguments", () => {
    const toolCall = { type: "tool-call", id: "call-1", name: "search", args: { query: "kv" } };
    expect(onWire({ type: "tool-call", index: 1, toolCall })).toEqual({
      event: "tool-call",
      data: { id: "call-1", name: "search", args: { query: "kv" } },
    });
  });

  it("shows why a call waits for approval, and no reason field when none was given", () => {
    const approval = { toolCallId: "call-2", toolName: "delete", args: { path: "/a" }, requestedAt: 1 };
    expect(onWire({ type: "approval-requested", approval: { ...approval, reason: "It deletes" } })).toEqual({
      event: "approval-requested",
      data: { id: "call-2", name: "delete", args: { path: "/a" }, reason: "It deletes" },
    });
    expect(onWire({ type: "approval-requested", approval })).toEqual({
      event: "approval-requested",
      data: { id: "call-2", name: "delete", args: { path: "/a" } },
    });
  });

  it("shows the questions the model asks", () => {
    const questions = [
      {
        question: "Which database?",
        header: "Database",
        options: [{ label: "KV" }, { label: "D1" }],
        multiSelect: false,
      },
    ];
    const question = { toolCallId: "call-3", toolName: "ask_user", questions, requestedAt: 1 };
    expect(onWire({ type: "question-requested", question })).toEqual({
      event: "question-requested",
      data: { id: "call-3", name: "ask_user", questions },
    });
  });

  it("tells which retry is coming, after how long, and why", () => {
    const error = { code: "RATE_LIMITED", message: "Slow down" };
    expect(onWire({ type: "retry", attempt: 2, delayMs: 1500, error })).toEqual({
      event: "retry",
      data: { attempt: 2, delayMs: 1500, code: "RATE_LIMITED" },
    });
  });

  it("sends a turn's usage when it ends", () => {
    const message = { role: "assistant", content: [], usage, stopReason: "stop" };
    expect(onWire({ type: "turn-end", message })).toEqual({ event: "usage", data: { usage } });
  });
});

describe("sseFrame", () => {
  const decoder = new TextDecoder();

  it("has an id line only when given one", () => {
    const event = { event: "reset", data: { a: 1 } };
    expect(decoder.decode(sseFrame(event))).toBe('event: reset\ndata: {"a":1}\n\n');
    expect(decoder.decode(sseFrame(event, "ab:1"))).toBe('id: ab:1\nevent: reset\ndata: {"a":1}\n\n');
  });

  it("escapes U+2028 and U+2029 so the data stays on one line for any reader", () => {
    const text = decoder.decode(sseFrame({ event: "text-delta", data: { delta: "a\u2028b\u2029c" } }));
    expect(text).toBe('event: text-delta\ndata: {"delta":"a\\u2028b\\u2029c"}\n\n');
    expect(JSON.parse(text.split("data: ")[1]!)).toEqual({ delta: "a\u2028b\u2029c" });
  });
});
