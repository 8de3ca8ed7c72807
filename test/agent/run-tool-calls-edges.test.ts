/**
 * Running a turn's tool calls (run-tool-calls.ts) in corners tool-loop.test.ts and hooks.test.ts leave
 * out: a call's duration; an unknown tool with no tools at all; an aborted call's error result; with
 * sequential tools, the calls after one whose hook failed (closed) are not run, saying so; with
 * parallel tools, a call waiting for approval when another call's hook stops the run is answered as
 * not run, and when two calls' hooks fail the first call's error is the run's; approved arguments a
 * `preToolUse` hook passes through unchanged run.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, defineTool, type HookEntry, runAgent, runAgentStream } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, echo, expectConsistent, gate, says, scripted, sendTo as send } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

describe("a call's result", () => {
  it("carries how long the call took", async () => {
    const { options } = scripted([calls(["echo", { word: "hi" }]), says("ok")]);
    const value = okValue(await runAgent(options({ tools: [echo] })));
    const [record] = value.toolCalls;
    expect(record?.result.output).toBe("echo:hi");
    expect(record?.durationMs).toBeGreaterThanOrEqual(0);
    expect(record?.durationMs).toBeLessThan(60_000);
  });

  it("of an unknown tool, in a run without tools, says there are none", async () => {
    const { options } = scripted([calls(["ghost", {}]), says("ok")]);
    const value = okValue(await runAgent(options()));
    expect(value.toolCalls.map((record) => [record.result.output, record.result.isError])).toEqual([
      ['Unknown tool "ghost". Available tools: (none)', true],
    ]);
  });

  it("of a call the run's abort ended is an error result", async () => {
    const waiting = gate("wait");
    const { options } = scripted([calls(["wait", {}]), says("never")]);
    const run = runAgentStream(options({ tools: [waiting.tool] }));
    for await (const event of run) if (event.type === "tool-start") run.abort();
    waiting.release();
    const result = await run.result;
    expect(failure(result).code).toBe("ABORTED");
    const partial = result.ok ? undefined : result.partial;
    expect(partial?.toolCalls.map((record) => [record.result.output, record.result.isError])).toEqual([
      ["Tool call aborted: the run was aborted", true],
    ]);
  });
});

/** A `postToolUse` hook, closed on failure, that throws "audit log down" and what `more` adds for the call's word. */
function auditDown(more: (word: string) => string): HookEntry<"postToolUse"> {
  return {
    name: "audit",
    onFailure: "closed",
    handler: ({ toolCall }) => {
      throw new Error(`audit log down${more(String(toolCall.args.word))}`);
    },
  };
}

describe("calls the run ends before", () => {
  it("sequential: the calls after one whose postToolUse hook failed (closed) are not run, saying why", async () => {
    const ran: string[] = [];
    const note = defineTool({
      name: "note",
      description: "Notes a word",
      inputSchema: { type: "object", properties: { word: { type: "string" } } },
      execute: (args) => {
        ran.push(String(args.word));
        return "noted";
      },
    });
    const { options } = scripted([calls(["note", { word: "one" }], ["note", { word: "two" }]), says("x")]);
    const result = await runAgent(
      options({
        tools: [note],
        toolExecution: "sequential",
        hooks: { postToolUse: auditDown(() => "") },
      }),
    );
    const error = failure(result);
    expect(error.code).toBe("HOOK_FAILED");
    expect(ran).toEqual(["one"]);
    const partial = result.ok ? undefined : result.partial;
    expect(partial?.toolCalls.map((record) => record.result.output)).toEqual([
      "noted",
      `Tool call not run: a hook failed (${error.message})`,
    ]);
    expectConsistent(partial?.messages ?? []);
  });

  it("parallel: a call waiting for approval when another call's hook stops the run is answered as not run", async () => {
    const { options } = scripted([calls(["echo", { word: "hi" }], ["send", { to: "ada" }]), says("x")]);
    const value = okValue(
      await runAgent(
        options({
          tools: [send, echo],
          hooks: { postToolUse: () => ({ decision: "stop", reason: "enough" }) },
        }),
      ),
    );
    expect(value.stopReason).toBe("hookStop");
    expect(value.pendingApprovals ?? []).toEqual([]);
    expect(value.toolCalls.map((record) => [record.toolCall.name, record.result.output])).toEqual([
      ["echo", "echo:hi"],
      ["send", "Tool call not run: a hook stopped the run"],
    ]);
    expectConsistent(value.messages);
  });
});

describe("calls that end the run the same way", () => {
  it("parallel: when two calls' hooks fail, the run's error is the first call's (the model's order)", async () => {
    const { options } = scripted([calls(["echo", { word: "one" }], ["echo", { word: "two" }]), says("x")]);
    const result = await runAgent(
      options({
        tools: [echo],
        hooks: { postToolUse: auditDown((word) => ` for ${word}`) },
      }),
    );
    const error = failure(result);
    expect(error.code).toBe("HOOK_FAILED");
    expect(error.message).toContain("audit log down for one");
    expect(error.message).not.toContain("two");
  });
});

describe("approved arguments", () => {
  it("a preToolUse hook that passes the approver's arguments through unchanged lets the call run", async () => {
    const model = createScriptedModel({ script: [calls(["send", { to: "ada" }]), says("Sent.")] });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [send],
        // Returns the arguments as it got them, a copy with its keys in another order.
        hooks: { preToolUse: ({ toolCall }) => ({ input: { ...toolCall.args } }) },
      }),
    );
    const paused = okValue(await session.chat("send it"));
    const id = paused.pendingApprovals?.[0]?.toolCallId as string;
    const resumed = okValue(await session.resume([{ toolCallId: id, approved: true, args: { to: "bob" } }]));
    expect(resumed.toolCalls.map((record) => record.result.output)).toEqual(["sent to bob"]);
  });
});
