/**
 * A provider can send anything; what Wisp stores must still restore. An Anthropic stream with absurd
 * usage (negative, overflowing to Infinity), a 1,500-character tool-call id, tool arguments nested
 * 10,000 levels deep, a provider block nested as deep, and a block index reused for another kind of
 * block: the session keeps a consistent conversation that survives export → JSON → restore.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgentSession, defineTool, parseSessionState } from "../../src/index.ts";
import { expectConsistent } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

type Event = Record<string, unknown>;

function sse(events: Event[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

/** JSON text with `levels` nested arrays, built without recursion. */
function deepJson(levels: number): string {
  return `${"[".repeat(levels)}1${"]".repeat(levels)}`;
}

/** A fetch answering each request with the next raw SSE body (text with raw numbers such as 1e999). */
function rawAnthropic(bodies: string[]): typeof fetch {
  let index = 0;
  return async () =>
    new Response(bodies[index++] ?? bodies.at(-1), { headers: { "content-type": "text/event-stream" } });
}

const start = (usage: string) =>
  `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":${usage}}}\n\n`;

const LONG_ID = `toolu_${"x".repeat(1500)}`;

const hostileTurn =
  start('{"input_tokens":-5,"output_tokens":1e999,"cache_read_input_tokens":-1e999}') +
  sse([
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: LONG_ID, name: "echo", input: {} },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: '{"text":"a"}' },
    },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_use", id: "toolu_deep", name: "echo", input: {} },
    },
  ]) +
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(`{"text":${deepJson(10_000)}}`)}}}\n\n` +
  sse([
    { type: "content_block_stop", index: 1 },
    {
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: "toolu_reused", name: "echo", input: {} },
    },
    // the same index again, now as a text block
    { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "hi" } },
    { type: "content_block_stop", index: 2 },
  ]) +
  `event: content_block_start\ndata: {"type":"content_block_start","index":3,"content_block":{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{"q":${deepJson(5_000)}}}}\n\n` +
  sse([{ type: "content_block_stop", index: 3 }]) +
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":1e999}}\n\n' +
  sse([{ type: "message_stop" }]);

const calmTurn =
  start('{"input_tokens":3,"output_tokens":1}') +
  sse([
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
    { type: "message_stop" },
  ]);

const echo = defineTool({
  name: "echo",
  description: "Echoes",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe("a hostile provider", () => {
  it("cannot brick the session: what is stored restores, and the conversation stays consistent", async () => {
    const options = {
      model: "anthropic/claude-sonnet-4-5" as const,
      apiKey: "test-key",
      fetch: rawAnthropic([hostileTurn, calmTurn]),
      tools: [echo],
      retry: { maxRetries: 0 },
    };
    const session = okValue(await createAgentSession(options));
    const result = await session.chat("go");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expectConsistent(result.value.messages);

    const assistant = result.value.messages.find((message) => message.role === "assistant");
    if (assistant?.role !== "assistant") throw new Error("no assistant message");
    for (const count of Object.values(assistant.usage)) {
      expect(Number.isFinite(count) && count >= 0 && Number.isInteger(count)).toBe(true);
    }
    const toolCalls = assistant.content.filter((part) => part.type === "tool_call");
    expect(toolCalls.map((call) => call.id.length <= 1000)).toEqual([true, true, true]);
    expect(toolCalls.every((call) => !("text" in call))).toBe(true);
    expect(assistant.content.find((part) => part.type === "text")).toMatchObject({ text: "hi" });
    const deep = toolCalls.find((call) => call.id === "toolu_deep");
    expect(deep?.args).toEqual({});
    expect(deep?.rawArgs?.length).toBeGreaterThan(20_000); // kept as text, not as a nested object

    const saved = JSON.parse(JSON.stringify(session.export()));
    expect(() => parseSessionState(saved)).not.toThrow();
    const restored = okValue(await createAgentSession({ ...options, restore: saved }));
    expect(restored.export()).toEqual(saved);
  });
});
