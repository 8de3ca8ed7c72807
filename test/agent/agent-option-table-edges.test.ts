/**
 * The agent's option table at its edges, through runAgent and createAgentSession: what each refusal
 * of a hook, a tool, a sessionId or `messages` says and where it points, every bad item of a list
 * found (not only the first), and the boundary values a count or an id may take.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgentSession, runAgent } from "../../src/index.ts";
import { MAX_ID_LENGTH } from "../../src/message/storable-values.ts";
import { echo, says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

/** The ConfigError of a run with `extra` added to working options; nothing may have been sent. */
async function refusal(extra: Record<string, unknown>) {
  const { model, options } = scripted([says("hi")]);
  const result = await runAgent({ ...options(), ...extra } as AgentOptions);
  expect(model.requests).toHaveLength(0);
  return failure(result);
}

/** A tool object as plain JavaScript may build one without defineTool. */
function rawTool(fields: Record<string, unknown> = {}) {
  return { name: "raw", description: "Raw", inputSchema: { type: "object" }, execute: () => "ok", ...fields };
}

describe("hooks", () => {
  it("a hook entry whose handler is no function says so at the handler", async () => {
    expect(await refusal({ hooks: { stop: { handler: 5 } } })).toMatchObject({
      code: "CONFIG_INVALID",
      path: "hooks.stop.handler",
      message: "hooks.stop.handler must be a function, got 5",
    });
  });

  it("a hook that is neither a function nor an entry says what a hook may be", async () => {
    expect(await refusal({ hooks: { preToolUse: "deny" } })).toMatchObject({
      path: "hooks.preToolUse",
      message: 'hooks.preToolUse must be a function or { handler }, got "deny"',
    });
  });

  it("an empty slot in a list of hooks is refused, not skipped", async () => {
    expect(await refusal({ hooks: { stop: [() => undefined, undefined] } })).toMatchObject({
      path: "hooks.stop.1",
      message: "hooks.stop.1 must be a function or { handler }, got nothing",
    });
  });

  it("a bad hook after a good one in a list is found", async () => {
    expect(await refusal({ hooks: { postToolUse: [{ handler: () => undefined }, 7] } })).toMatchObject({
      path: "hooks.postToolUse.1",
      message: "hooks.postToolUse.1 must be a function or { handler }, got 7",
    });
  });
});

describe("tools", () => {
  it("tools that are not an array say what they are", async () => {
    expect(await refusal({ tools: { echo } })).toMatchObject({
      path: "tools",
      message: "tools must be an array of tools, got an object",
    });
  });

  it("a tool without a description is refused, naming it", async () => {
    expect(await refusal({ tools: [echo, rawTool({ description: 5 })] })).toMatchObject({
      path: "tools.1",
      message:
        'Each tool needs a name, a description, an inputSchema and execute (use defineTool); tool 1 ("raw") does not',
    });
  });

  it.each([
    ["not an object", "object"],
    ["null", null],
  ])("a tool whose inputSchema is %s is refused", async (_what, inputSchema) => {
    expect(await refusal({ tools: [rawTool({ inputSchema })] })).toMatchObject({
      path: "tools.0",
      message:
        'Each tool needs a name, a description, an inputSchema and execute (use defineTool); tool 0 ("raw") does not',
    });
  });

  it("a tool without a name is refused by its index alone", async () => {
    expect(await refusal({ tools: [rawTool({ name: 3 })] })).toMatchObject({
      path: "tools.0",
      message:
        "Each tool needs a name, a description, an inputSchema and execute (use defineTool); tool 0 does not",
    });
  });

  it("a needsApproval that is neither a boolean nor a function is refused at its path", async () => {
    expect(await refusal({ tools: [rawTool({ needsApproval: "yes" })] })).toMatchObject({
      code: "CONFIG_INVALID",
      path: "tools.0.needsApproval",
      message: 'tools.0.needsApproval must be true, false or a function, got "yes"',
    });
  });

  it("two tools of one name are refused at the second", async () => {
    expect(await refusal({ tools: [rawTool(), rawTool()] })).toMatchObject({
      path: "tools.1.name",
      message: 'Two tools are named "raw"',
    });
  });
});

describe("counts that may be 0", () => {
  it("outputRetries 0 and maxStopBlocks 0 are taken", async () => {
    const { options } = scripted([says("hi")]);
    const result = await runAgent(options({ outputRetries: 0, maxStopBlocks: 0 }));
    expect(okValue(result).text).toBe("hi");
  });
});

describe("sessionId", () => {
  const base = { model: "anthropic/claude-sonnet-4-5" as const, apiKey: "k" };

  it("may be exactly the longest id a stored session holds", async () => {
    const sessionId = "s".repeat(MAX_ID_LENGTH);
    const session = okValue(await createAgentSession({ ...base, sessionId }));
    expect(session.export().sessionId).toBe(sessionId);
    const { options } = scripted([says("hi")]);
    expect((await runAgent(options({ sessionId }))).ok).toBe(true);
  });

  it("one character longer, or empty, is refused with its length", async () => {
    expect(
      failure(await createAgentSession({ ...base, sessionId: "s".repeat(MAX_ID_LENGTH + 1) })),
    ).toMatchObject({
      path: "sessionId",
      message: `sessionId must be 1 to ${MAX_ID_LENGTH} characters long, got ${MAX_ID_LENGTH + 1}`,
    });
    expect(await refusal({ sessionId: "" })).toMatchObject({
      path: "sessionId",
      message: `sessionId must be 1 to ${MAX_ID_LENGTH} characters long, got 0`,
    });
  });

  it("that is not a string says so, not something about its length", async () => {
    expect(await refusal({ sessionId: 7 })).toMatchObject({
      path: "sessionId",
      message: "sessionId must be a string, got 7",
    });
    expect(await refusal({ sessionId: ["a"] })).toMatchObject({
      message: "sessionId must be a string, got an array",
    });
  });
});

describe("messages", () => {
  it("that are not an array say where to get them", async () => {
    expect(await refusal({ messages: "hi" })).toMatchObject({
      path: "messages",
      message: "messages must be an array of messages (a previous run's result.value.messages)",
    });
  });
});
