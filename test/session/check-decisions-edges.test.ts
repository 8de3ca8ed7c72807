/**
 * checkDecisions and answered (src/session/check-decisions.ts) called directly with a crafted paused
 * turn: the shape checks of one decision and their messages, a replayed call told from an unknown one
 * (by the turn's results and by the conversation), the standing rules a resume keeps and adds, a tool
 * name that matches, "always deny" answering the tool's other calls, and edited arguments that a
 * tool's schema refuses or cannot check.
 */
import { describe, expect, it } from "vitest";
import type { Paused, StoredApproval, ToolPermissions } from "../../src/agent/approvals.ts";
import type { Tool } from "../../src/agent/define-tool.ts";
import { ConfigError, type Message } from "../../src/index.ts";
import { answered, type CheckedDecisions, checkDecisions } from "../../src/session/check-decisions.ts";

function approval(toolCallId: string, toolName = "send"): StoredApproval {
  return { toolCallId, toolName, args: {}, digest: "d" } as StoredApproval;
}

function paused(approvals: StoredApproval[], resultIds: string[] = []): Paused {
  return {
    approvals,
    results: resultIds.map((toolCallId) => ({
      type: "tool_result" as const,
      toolCallId,
      toolName: "send",
      output: "done",
    })),
  } as Paused;
}

function resultMessage(...ids: string[]): Message {
  return {
    role: "tool_result",
    content: ids.map((toolCallId) => ({ type: "tool_result", toolCallId, toolName: "send", output: "done" })),
  } as Message;
}

/** A tool with only what checkDecisions reads: its name and (optionally) its argument check. */
function tool(parseArgs?: Tool<unknown>["parseArgs"]): Tool<unknown> {
  return { name: "send", parseArgs } as Tool<unknown>;
}

const sendTools = new Map([["send", tool()]]);

async function refusal(
  input: unknown,
  turn: Paused | undefined = paused([approval("a")]),
  options: { messages?: Message[]; tools?: ReadonlyMap<string, Tool<unknown>>; rules?: ToolPermissions } = {},
): Promise<ConfigError> {
  const result = await checkDecisions(
    input,
    turn,
    options.messages ?? [],
    options.tools ?? sendTools,
    options.rules ?? {},
  );
  expect(result).toBeInstanceOf(ConfigError);
  return result as ConfigError;
}

async function checked(
  input: unknown,
  turn: Paused,
  rules: ToolPermissions = {},
  tools: ReadonlyMap<string, Tool<unknown>> = sendTools,
): Promise<CheckedDecisions> {
  const result = await checkDecisions(input, turn, [], tools, rules);
  if (result instanceof ConfigError) throw result;
  return result;
}

describe("the shape of a decision", () => {
  it("refuses a resume without decisions, naming what it needs", async () => {
    for (const input of [[], undefined, "a"]) {
      expect(await refusal(input)).toMatchObject({
        code: "APPROVAL_INVALID",
        path: "decisions",
        message: "resume needs an array of one or more decisions",
      });
    }
  });

  it("refuses an entry that is not an object, showing the value", async () => {
    expect(await refusal([7])).toMatchObject({
      code: "APPROVAL_INVALID",
      path: "decisions.0",
      message: "decisions.0 must be a decision object, got 7",
    });
  });

  it("refuses arguments that are not an object", async () => {
    expect(await refusal([{ toolCallId: "a", approved: true, args: "to=x" }])).toMatchObject({
      code: "APPROVAL_INVALID",
      path: "decisions.0.args",
      message: "decisions.0.args must be an object of arguments",
    });
  });

  it("names an unknown field as a decision field", async () => {
    const error = await refusal([{ toolCallId: "a", approved: true, approve: true }]);
    expect(error.path).toBe("decisions.0.approve");
    expect(error.message).toMatch(/^Unknown decision field "approve"/);
  });

  it("refuses a denial that edits the arguments", async () => {
    expect(await refusal([{ toolCallId: "a", approved: false, args: { to: "x" } }])).toMatchObject({
      code: "APPROVAL_INVALID",
      path: "decisions.0.args",
      message: "decisions.0 edits the arguments of a call it denies",
    });
  });

  it("refuses a call decided twice, naming it", async () => {
    const twice = [
      { toolCallId: "a", approved: true },
      { toolCallId: "a", approved: false },
    ];
    expect(await refusal(twice)).toMatchObject({
      path: "decisions.1.toolCallId",
      message: "Tool call a is decided twice",
      details: { toolCallId: "a" },
    });
  });
});

describe("a call that is not waiting", () => {
  it("is a replay when the paused turn already holds its result", async () => {
    const turn = paused([approval("a")], ["b", "c"]);
    expect(await refusal([{ toolCallId: "c", approved: true }], turn)).toMatchObject({
      path: "decisions.0.toolCallId",
      message: "Tool call c was already decided (a decision is used once)",
      details: { toolCallId: "c", replayed: true },
    });
  });

  it("is a replay when the conversation holds its result", async () => {
    const messages = [resultMessage("x", "c")];
    expect(
      await refusal([{ toolCallId: "c", approved: true }], paused([approval("a")]), { messages }),
    ).toMatchObject({
      details: { toolCallId: "c", replayed: true },
    });
  });

  it("is unknown when neither the turn nor the conversation answered it", async () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "hi" }] } as Message,
      resultMessage("x"),
    ];
    const turn = paused([approval("a")], ["b"]);
    expect(await refusal([{ toolCallId: "c", approved: true }], turn, { messages })).toMatchObject({
      path: "decisions.0.toolCallId",
      message: "Tool call c is not waiting for approval",
      details: { toolCallId: "c", replayed: false },
    });
  });
});

describe("answered", () => {
  it("looks at the paused turn's results, then at the conversation's tool results", () => {
    expect(answered([], paused([], ["b", "c"]), "c")).toBe(true);
    expect(answered([], paused([], ["b"]), "c")).toBe(false);
    expect(answered([], paused([], ["c"]), "b")).toBe(false);
    expect(answered([resultMessage("c")], undefined, "c")).toBe(true);
    expect(answered([resultMessage("b")], undefined, "c")).toBe(false);
    expect(
      answered([{ role: "user", content: [{ type: "text", text: "c" }] } as Message], undefined, "c"),
    ).toBe(false);
  });
});

describe("what a resume runs with", () => {
  it("keeps the session's standing rules and adds an always answer to them", async () => {
    const turn = paused([approval("a"), approval("b", "lookup")]);
    const tools = new Map([
      ["send", tool()],
      ["lookup", tool()],
    ]);
    const plain = await checked([{ toolCallId: "a", approved: true }], paused([approval("a")]), {
      rm: "deny",
    });
    expect(plain.permissions).toEqual({ rm: "deny" });
    const always = await checked(
      [
        { toolCallId: "a", approved: true, toolName: "send", always: true },
        { toolCallId: "b", approved: false },
      ],
      turn,
      { rm: "deny" },
      tools,
    );
    expect(always.permissions).toEqual({ rm: "deny", send: "allow" });
    expect(always.decisions.map((decision) => decision.toolCallId)).toEqual(["a", "b"]);
  });

  it("refuses a tool name that is not the call's, naming the call's tool", async () => {
    expect(await refusal([{ toolCallId: "a", approved: true, toolName: "lookup" }])).toMatchObject({
      path: "decisions.0.toolName",
      message: 'Tool call a is a call of "send", not "lookup"',
      details: { toolCallId: "a", toolName: "send" },
    });
  });

  it("answers the tool's other waiting calls the way an always answer does", async () => {
    const turn = paused([approval("a"), approval("b"), approval("c", "lookup")]);
    const denied = await checked([{ toolCallId: "a", approved: false, always: true }], turn);
    expect(denied.decisions).toEqual([
      { toolCallId: "a", approved: false, always: true },
      { toolCallId: "b", approved: false },
    ]);
    expect(denied.permissions).toEqual({ send: "deny" });
    const allowed = await checked([{ toolCallId: "a", approved: true, always: true }], turn);
    expect(allowed.decisions.at(1)).toEqual({ toolCallId: "b", approved: true });
  });
});

describe("edited arguments", () => {
  it("are refused when the tool's schema refuses them, with its message", async () => {
    const tools = new Map([["send", tool(async () => ({ ok: false, message: "to: required" }) as never)]]);
    expect(
      await refusal([{ toolCallId: "a", approved: true, args: { text: "hi" } }], undefined, { tools }),
    ).toMatchObject({
      code: "APPROVAL_INVALID",
      path: "decisions.0.args",
      message: 'The edited arguments of "send" (tool call a) are invalid: to: required',
      details: { toolCallId: "a" },
    });
  });

  it("are refused when the tool's check throws, keeping the cause", async () => {
    const tools = new Map([
      [
        "send",
        tool(async () => {
          throw new Error("schema broke");
        }),
      ],
    ]);
    expect(
      await refusal([{ toolCallId: "a", approved: true, args: { text: "hi" } }], undefined, { tools }),
    ).toMatchObject({
      code: "APPROVAL_INVALID",
      path: "decisions.0.args",
      message: "The edited arguments of tool call a could not be checked",
      details: { toolCallId: "a", cause: "Error: schema broke" },
    });
  });
});
