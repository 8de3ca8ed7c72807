/**
 * A bad state says what is wrong in words a person can act on (without zod's locale), and a state
 * nested deep enough to exhaust the stack is refused at the door.
 */
import { describe, expect, it } from "vitest";
import { parseSessionState, runAgent } from "../../src/index.ts";
import { says, scripted } from "../support/agent.ts";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
const base = {
  version: 1,
  sessionId: "s",
  createdAt: 1,
  updatedAt: 1,
  provider: "anthropic",
  model: "m",
  parameters: {},
  messages: [],
  usage,
  turns: 0,
  queue: [],
  metadata: {},
};

function problem(state: unknown): { path?: string; message: string } {
  try {
    parseSessionState(state);
  } catch (error) {
    return error as { path?: string; message: string };
  }
  throw new Error("expected the state to be refused");
}

/** `{ a: { a: … } }`, `levels` deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

describe("restore errors read well", () => {
  it.each([
    [
      { messages: [{ id: "1", role: "bot", content: [], timestamp: 1 }] },
      "messages.0.role",
      'expected one of user, assistant, tool_result, got "bot"',
    ],
    [
      { messages: [{ id: "1", role: "user", content: [], timestamp: "x" }] },
      "messages.0.timestamp",
      "expected a number, got string",
    ],
    [
      { messages: [{ id: "1", role: "user", content: "hi", timestamp: 1 }] },
      "messages.0.content",
      "expected an array, got string",
    ],
    [{ usage: { ...usage, input: -1 } }, "usage.input", "expected a non-negative integer, got -1"],
    [{ usage: { ...usage, output: 1.5 } }, "usage.output", "expected a non-negative integer, got 1.5"],
    [{ usage: { ...usage, reasoning: "12" } }, "usage.reasoning", "expected a number, got string"],
    [{ turns: 2 ** 60 }, "turns", `expected a non-negative integer, got ${2 ** 60}`],
    [{ usage: { ...usage, costUsd: -0.5 } }, "usage.costUsd", "expected a number ≥ 0, got -0.5"],
    [{ metadata: [] }, "metadata", "expected a JSON object, got an array"],
    [{ sessionId: null }, "sessionId", "expected a string, got null"],
    [
      {
        messages: [{ id: "1", role: "tool_result", content: [{ type: "text", text: "x" }], timestamp: 1 }],
      },
      "messages.0.content.0.type",
      'expected tool_result, got "text"',
    ],
    [
      { provider: "nope" },
      "provider",
      'expected one of anthropic, openai-chat, openai-responses, google, got "nope"',
    ],
    [
      { messages: [{ id: "1", role: "user", content: [{ type: "video" }], timestamp: 1 }] },
      "messages.0.content.0.type",
      'expected one of text, image, got "video"',
    ],
    [{ turns: undefined }, "turns", "expected a number, got nothing"],
  ])("%j → %s: %s", (change, path, words) => {
    const error = problem({ ...base, ...change });
    expect(error.path).toBe(path);
    expect(error.message).toBe(`Invalid session state at ${path}: ${words}`);
    expect(error.message).not.toContain("Invalid input");
  });
});

describe("deep nesting", () => {
  it("10,000 levels of metadata are a ConfigError naming the field, not a RangeError", () => {
    const error = problem({ ...base, metadata: nested(10_000) });
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "metadata" });
    expect(error.message).toContain("nested deeper than");
  });

  it("a conversation nested as deep, passed to runAgent, is a ConfigError result", async () => {
    const { options } = scripted([says("hi")]);
    const messages = [
      { id: "1", role: "user", content: [{ type: "text", text: "x", deep: nested(10_000) }], timestamp: 1 },
    ];
    const result = await runAgent(options({ messages: messages as never }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ _tag: "ConfigError", path: "messages" });
  });

  it("ordinary nesting (tool arguments 50 levels deep) still restores", () => {
    const args = nested(50);
    const state = {
      ...base,
      messages: [
        { id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 1 },
        {
          id: "a",
          role: "assistant",
          content: [{ type: "tool_call", id: "t", name: "x", args }],
          timestamp: 1,
          provider: "anthropic",
          model: "m",
          usage,
          stopReason: "toolUse",
        },
        {
          id: "r",
          role: "tool_result",
          content: [{ type: "tool_result", toolCallId: "t", output: "ok", isError: false }],
          timestamp: 1,
        },
      ],
    };
    expect(parseSessionState(state).messages).toHaveLength(3);
  });
});

describe("parameters the SDK would refuse", () => {
  it.each([
    [{ maxTokens: -1 }, "parameters.maxTokens", "expected a number > 0, got -1"],
    [{ maxTokens: 0.5 }, "parameters.maxTokens", "expected an integer, got 0.5"],
    [{ temperature: -3 }, "parameters.temperature", "expected a number ≥ 0, got -3"],
    [{ temperature: 2.5 }, "parameters.temperature", "expected a number ≤ 2, got 2.5"],
    [{ maxTurns: 0 }, "parameters.maxTurns", "expected a number > 0, got 0"],
  ])("%j is refused at restore (an import cannot make a dead session)", (parameters, path, words) => {
    const error = problem({ ...base, parameters });
    expect(error.path).toBe(path);
    expect(error.message).toBe(`Invalid session state at ${path}: ${words}`);
  });
});
