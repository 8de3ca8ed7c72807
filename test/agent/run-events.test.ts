/**
 * runAgentStream's events: their order over a tool-using run (in-process and over loopback HTTP),
 * hook decisions among them, `.result` with or without iterating, and `run-end` carrying the same
 * Result.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentEvent, defineTool, runAgentStream, uncheckedModel } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { loopbackModel } from "../support/loopback.ts";

const upper = defineTool({
  name: "upper",
  description: "Upper-cases",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

/** Event types with the deltas of one part collapsed, to keep expectations readable. */
function shape(events: AgentEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const label =
      event.type === "turn-start"
        ? `turn-start ${event.turn}`
        : event.type === "message"
          ? `message ${event.message.role}`
          : event.type;
    if (label !== out.at(-1) || !label.endsWith("-delta")) out.push(label);
  }
  return out.filter((label) => label !== "usage");
}

const EXPECTED = [
  "run-start",
  "message user",
  "turn-start 1",
  "text-start",
  "text-delta",
  "text-end",
  "tool-call-start",
  "tool-call-delta",
  "tool-call",
  "turn-end",
  "message assistant",
  "hook-decision",
  "tool-start",
  "tool-result",
  "message tool_result",
  "turn-start 2",
  "text-start",
  "text-delta",
  "text-end",
  "turn-end",
  "message assistant",
  "run-end",
];
const SCRIPT = () => [
  {
    content: [
      { type: "text" as const, text: "Calling." },
      { type: "tool_call" as const, name: "upper", args: { text: "hi" } },
    ],
  },
  says("It says HI."),
];
const hooks = { preToolUse: () => ({ decision: "allow" as const }) };

describe("run events", () => {
  it("come in order in-process, with run-end carrying the Result", async () => {
    const { options } = scripted(SCRIPT());
    const run = runAgentStream(options({ tools: [upper], hooks }));
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(shape(events)).toEqual(EXPECTED);
    const result = await run.result;
    expect(events.at(-1)).toEqual({ type: "run-end", result });
    // Every message that joins the conversation is reported once, in order, as the very object kept.
    const reported = events.flatMap((event) => (event.type === "message" ? [event.message] : []));
    expect(result.ok && result.value.messages).toEqual(reported);
    expect(events.find((event) => event.type === "hook-decision")).toMatchObject({
      event: "preToolUse",
      hook: "preToolUse#1",
      decision: { decision: "allow" },
    });
  });

  it(".result resolves without iterating, and a run can be iterated only once", async () => {
    const { options } = scripted(SCRIPT());
    const run = runAgentStream(options({ tools: [upper] }));
    const result = await run.result;
    expect(result.ok && result.value.text).toBe("It says HI.");
    run[Symbol.asyncIterator]();
    expect(() => run[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  describe("over loopback HTTP", () => {
    const loopback = loopbackModel();

    it.each([
      ["anthropic/claude-sonnet-4-5", ""],
      ["openai/gpt-4o", "/v1"],
    ])("a %s tool loop gives the same events", async (modelName, suffix) => {
      loopback.model.push(...SCRIPT());
      const run = runAgentStream({
        model: uncheckedModel(modelName),
        baseURL: loopback.url + suffix,
        apiKey: "k",
        prompt: "Shout hi",
        tools: [upper],
        hooks,
      });
      const events: AgentEvent[] = [];
      for await (const event of run) events.push(event);
      expect(shape(events)).toEqual(EXPECTED);
      const result = await run.result;
      expect(result.ok && result.value.toolCalls[0]?.result.output).toBe("HI");
    });
  });
});

describe("runAgentStream with calls", () => {
  it("reports tool-start only for calls that run", async () => {
    const { options } = scripted([calls(["upper", { text: "a" }], ["missing", {}]), says("ok")]);
    const run = runAgentStream(options({ tools: [upper] }));
    const started: string[] = [];
    for await (const event of run) if (event.type === "tool-start") started.push(event.toolCall.name);
    expect(started).toEqual(["upper"]);
  });
});
