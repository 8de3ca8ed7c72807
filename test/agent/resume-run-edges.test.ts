/**
 * Resuming a paused turn (resume-run.ts) in corners approvals.test.ts and questions.test.ts leave out:
 * one of two questions answered keeps the run paused on the other; a call left undecided when the
 * resumed run ends gets a result saying why (aborted, or ended first by a hook's stop); a denial with an
 * empty reason reads as one without.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type AgentSession,
  askUserTool,
  createAgentSession,
  defineTool,
  type SessionOptions,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, says, sendTo as send } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const question = (header: string) => ({
  questions: [
    { question: `${header}?`, header, options: [{ label: "Yes" }, { label: "No" }], multiSelect: false },
  ],
});

async function session(script: ScriptedTurn[], extra: Partial<SessionOptions>): Promise<AgentSession> {
  const model = createScriptedModel({ script });
  return okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
      ...extra,
    }),
  );
}

describe("questions answered in part", () => {
  it("one of two answered: the run stays paused on the other, which is answered later", async () => {
    const asking = await session(
      [calls(["ask_user", question("Tea")], ["ask_user", question("Milk")]), says("Done.")],
      { tools: [askUserTool()] },
    );
    const paused = okValue(await asking.chat("Make me a drink"));
    const [tea, milk] = (paused.pendingQuestions ?? []).map((pending) => pending.toolCallId);
    expect([tea, milk].every((id) => typeof id === "string")).toBe(true);
    const half = okValue(
      await asking.resume([{ toolCallId: tea as string, answers: [{ selected: ["Yes"] }] }]),
    );
    expect(half.stopReason).toBe("question");
    expect(half.pendingApprovals).toEqual([]);
    expect(half.pendingQuestions?.map((pending) => pending.toolCallId)).toEqual([milk]);
    const done = okValue(
      await asking.resume([{ toolCallId: milk as string, answers: [{ selected: ["No"] }] }]),
    );
    expect([done.stopReason, done.text]).toEqual(["complete", "Done."]);
    expectConsistent(done.messages);
  });
});

describe("a call left undecided when the resumed run ends", () => {
  it("a hook's stop: it is not run, because the run ended first", async () => {
    const stopping = await session([calls(["send", { to: "ada" }], ["send", { to: "bob" }]), says("x")], {
      tools: [send],
      hooks: { postToolUse: () => ({ decision: "stop", reason: "one is enough" }) },
    });
    const paused = okValue(await stopping.chat("send both"));
    const [ada, bob] = (paused.pendingApprovals ?? []).map((pending) => pending.toolCallId);
    const resumed = okValue(await stopping.resume([{ toolCallId: ada as string, approved: true }]));
    expect(resumed.stopReason).toBe("hookStop");
    const results = resumed.toolCalls.map((record) => [record.toolCall.id, record.result.output]);
    expect(results).toContainEqual([ada, "sent to ada"]);
    const last = resumed.messages.at(-1);
    expect(
      last?.role === "tool_result" && last.content.map((part) => [part.toolCallId, part.output]),
    ).toEqual([
      [ada, "sent to ada"],
      [bob, "Tool call not run: the run ended first"],
    ]);
  });

  it("an abort: it is not run, because the run was aborted", async () => {
    let release: () => void = () => {};
    const slow = defineTool({
      name: "send",
      description: "Sends, slowly",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: (_args, context) =>
        new Promise<string>((resolve) => {
          release = () => resolve("late");
          context.signal.addEventListener("abort", () => resolve("aborted"));
        }),
    });
    const aborting = await session([calls(["send", { to: "ada" }], ["send", { to: "bob" }]), says("x")], {
      tools: [slow],
    });
    const paused = okValue(await aborting.chat("send both"));
    const [ada, bob] = (paused.pendingApprovals ?? []).map((pending) => pending.toolCallId);
    const run = aborting.resumeStream([{ toolCallId: ada as string, approved: true }]);
    for await (const event of run) if (event.type === "tool-start") run.abort();
    release();
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    const messages = result.ok ? [] : result.partial.messages;
    const last = messages.at(-1);
    expect(
      last?.role === "tool_result" && last.content.map((part) => [part.toolCallId, part.output]),
    ).toEqual([
      [ada, "Tool call aborted: the run was aborted"],
      [bob, "Tool call not run: the run was aborted"],
    ]);
  });
});

describe("a denial", () => {
  it("with an empty reason reads as one without", async () => {
    const denying = await session([calls(["send", { to: "ada" }]), says("Not sent.")], { tools: [send] });
    const paused = okValue(await denying.chat("send it"));
    const id = paused.pendingApprovals?.[0]?.toolCallId as string;
    const resumed = okValue(await denying.resume([{ toolCallId: id, approved: false, reason: "" }]));
    expect(resumed.toolCalls.map((record) => [record.result.output, record.result.isError])).toEqual([
      ["The user denied this tool call", true],
    ]);
  });
});
