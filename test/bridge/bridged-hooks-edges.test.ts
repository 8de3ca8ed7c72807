/**
 * The worker session's options with the main side's decisions wired in (src/bridge/bridged-hooks.ts),
 * each in a real session (createAgentSession) whose questions to the main side a stand-in asker answers:
 * the session's own hooks keep running first (a lone hook too) and options without any make a valid
 * session; an answer that is not a decision fails closed only for `tool-before`; the `stop` question
 * shows the message and why the run stops; a tool is asked about exactly when its `needsApproval` (on
 * the validated arguments) says so, and other tools stay themselves; arguments an approver edited
 * pass the session's own hooks again — a failure, a stop or a change of them leaves the call not run.
 * The same decisions over a real port are in bridge.test.ts.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { bridgedOptions } from "../../src/bridge/bridged-hooks.ts";
import type { Asked, DecisionAsker } from "../../src/bridge/decision-asker.ts";
import {
  type AgentResult,
  askUserTool,
  createAgentSession,
  defineTool,
  type HookList,
  type SessionOptions,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

/** A stand-in for the main side: `answer` gives each question's answer (default: none); `asked` keeps them. */
function mainSide(answer: (kind: string, payload: Record<string, unknown>) => Asked = () => none) {
  const asked: Array<{ kind: string; payload: Record<string, unknown> }> = [];
  const asker = {
    timeoutOf: (kind: string) => (kind === "approval" ? 60_000 : 10_000),
    ask: async (kind: string, payload: Record<string, unknown>) => {
      asked.push({ kind, payload });
      return answer(kind, payload);
    },
  } as unknown as DecisionAsker;
  return { asker, asked, kinds: () => asked.map((question) => question.kind) };
}

const none: Asked = { answered: false, why: "nobody there" };
const answered = (answer: unknown): Asked => ({ answered: true, answer });

/** A tool that "mails"; `needsApproval` as given. */
function mail(needsApproval?: boolean | ((args: { to: string }) => boolean)) {
  return defineTool({
    name: "mail",
    description: "Mails",
    input: z.object({ to: z.string().default("boss") }),
    ...(needsApproval === undefined ? {} : { needsApproval }),
    execute: ({ to }) => `mailed ${to}`,
  });
}

/** A session of `options` bridged for `decides`, run once on `script`. */
async function run(
  script: ScriptedTurn[],
  options: SessionOptions,
  decides: string[],
  asker: DecisionAsker,
): Promise<AgentResult> {
  const model = createScriptedModel({ script });
  const bridged = bridgedOptions(
    {
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
      ...options,
    },
    new Set(decides),
    asker,
  );
  const session = okValue(await createAgentSession(bridged));
  return okValue(await session.chat("go"));
}

describe("the session's own hooks", () => {
  it("a lone preToolUse hook (not in a list) still runs before the main side is asked", async () => {
    const { asker, kinds } = mainSide(() => answered(undefined));
    const own = (input: { toolCall: { args: { to?: string } } }) =>
      input.toolCall.args.to === "eve" ? { decision: "deny" as const, reason: "not eve" } : undefined;
    const result = await run(
      [calls(["mail", { to: "eve" }]), says("done")],
      { tools: [mail()], hooks: { preToolUse: own } },
      ["tool-before"],
      asker,
    );
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringContaining("not eve"),
    });
    expect(kinds()).toEqual([]);
  });

  it("without hooks of their own, the options make a valid session with one question per kind", async () => {
    const { asker, asked, kinds } = mainSide();
    const result = await run(
      [calls(["mail", { to: "ada" }]), says("done")],
      { tools: [mail()] },
      ["prompt-submit", "tool-before", "tool-after", "stop"],
      asker,
    );
    // No answer for tool-before: the call is denied, and the run goes on.
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringContaining("No decision from the main thread (nobody there)"),
    });
    expect(result.text).toBe("done");
    // A denied call is a failure: it has no tool-after.
    expect(kinds()).toEqual(["prompt-submit", "tool-before", "stop"]);
    expect(asked.at(-1)?.payload).toMatchObject({
      stopReason: "complete",
      message: { role: "assistant", content: [{ type: "text", text: "done" }] },
    });
  });
});

describe("an answer that is not a decision", () => {
  it("fails open for prompt-submit, tool-after and stop: the run goes on", async () => {
    const { asker, kinds } = mainSide(() => answered({ decision: "maybe" }));
    const result = await run(
      [calls(["mail", { to: "ada" }]), says("done")],
      { tools: [mail()] },
      ["prompt-submit", "tool-after", "stop"],
      asker,
    );
    expect([result.stopReason, result.text]).toEqual(["complete", "done"]);
    expect(result.toolCalls[0]?.result.output).toBe("mailed ada");
    expect(kinds()).toEqual(["prompt-submit", "tool-after", "stop"]);
  });

  it("fails closed for tool-before: the call is not run", async () => {
    const { asker } = mainSide(() => answered({ decision: "maybe" }));
    const result = await run(
      [calls(["mail", { to: "ada" }]), says("done")],
      { tools: [mail()] },
      ["tool-before"],
      asker,
    );
    expect(result.toolCalls[0]?.result.isError).toBe(true);
    expect(result.text).toBe("done");
  });
});

describe("approvals", () => {
  it("the approval hook waits the approval kind's time limit plus the margin", () => {
    const { asker } = mainSide();
    const bridged = bridgedOptions({ tools: [mail(true)] }, new Set(["approval"]), asker);
    expect(bridged.hooks?.preToolUse).toEqual([
      expect.objectContaining({ name: "bridge-approval", timeoutMs: 65_000, onFailure: "closed" }),
    ]);
  });

  it("asks only when the tool's needsApproval says so for the call's arguments", async () => {
    const { asker, asked } = mainSide(() => answered({ approved: false, reason: "no mail to the boss" }));
    const result = await run(
      [calls(["mail", { to: "ada" }], ["mail", { to: "boss" }]), says("done")],
      { tools: [mail(({ to }) => to === "boss")] },
      ["approval"],
      asker,
    );
    expect(result.toolCalls.map((call) => call.result.output)).toEqual([
      "mailed ada",
      expect.stringContaining("no mail to the boss"),
    ]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.payload).toMatchObject({ approval: { toolName: "mail", args: { to: "boss" } } });
  });

  it("needsApproval: false asks nothing", async () => {
    const { asker, asked } = mainSide(() => answered({ approved: false }));
    const result = await run(
      [calls(["mail", { to: "ada" }]), says("done")],
      { tools: [mail(false)] },
      ["approval"],
      asker,
    );
    expect(result.toolCalls[0]?.result.output).toBe("mailed ada");
    expect(asked).toEqual([]);
  });

  it("needsApproval sees the validated arguments; invalid ones are not asked about but reported by the run", async () => {
    const { asker, asked } = mainSide(() => answered({ approved: false }));
    const result = await run(
      // {} becomes { to: "boss" }; { to: 5 } is not valid.
      [calls(["mail", {}], ["mail", { to: 5 }]), says("done")],
      { tools: [mail(({ to }) => to === "boss")] },
      ["approval"],
      asker,
    );
    expect(asked.map((question) => question.payload.approval)).toEqual([
      expect.objectContaining({ args: {} }),
    ]);
    expect(result.toolCalls.map((call) => call.result.isError)).toEqual([true, true]);
    expect(result.toolCalls[1]?.result.output).not.toContain("mailed");
  });

  it("tools that need no approval stay themselves: the ask tool still pauses the run", async () => {
    const { asker, asked } = mainSide(() => answered({ approved: true }));
    const questions = [
      { question: "Which?", header: "Pick", options: [{ label: "A" }, { label: "B" }], multiSelect: false },
    ];
    const result = await run(
      [calls(["ask_user", { questions }])],
      { tools: [askUserTool(), mail(true)] },
      ["approval"],
      asker,
    );
    expect(result.stopReason).toBe("question");
    expect(asked).toEqual([]);
  });
});

describe("arguments an approver edited", () => {
  /** A run where the model mails ada, the approver changes it to eve, and `own` are the session's hooks. */
  async function edited(own: HookList<"preToolUse">) {
    const { asker } = mainSide(() => answered({ approved: true, args: { to: "eve" } }));
    return run(
      [calls(["mail", { to: "ada" }]), says("done")],
      { tools: [mail(true)], hooks: { preToolUse: own } },
      ["approval"],
      asker,
    );
  }
  const forEve =
    (decide: (args: { to?: string }) => unknown) => (input: { toolCall: { args: { to?: string } } }) =>
      (input.toolCall.args.to === "eve" ? decide(input.toolCall.args) : undefined) as never;

  it("a hook that fails on them leaves the call not run, and says why", async () => {
    const result = await edited(
      forEve(() => {
        throw new Error("eve is not in the address book");
      }),
    );
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringContaining(
        "A preToolUse hook failed on the edited arguments: eve is not in the address book",
      ),
    });
  });

  it("a hook that stops on them stops the run", async () => {
    const result = await edited(forEve(() => ({ decision: "stop", reason: "no eve" })));
    expect(result.stopReason).toBe("hookStop");
    expect(result.toolCalls[0]?.result.output).not.toBe("mailed eve");
  });

  it("a hook that changes them leaves the call not run: the approver is to be asked again", async () => {
    const result = await edited(forEve(() => ({ input: { to: "mallory" } })));
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringContaining(
        "A preToolUse hook changed the arguments the approver supplied; ask again",
      ),
    });
  });

  it("a hook that returns them unchanged, or an input of undefined, lets the edited call run", async () => {
    const same = await edited((input) => ({ input: { ...input.toolCall.args } }));
    expect(same.toolCalls[0]?.result.output).toBe("mailed eve");
    // Not a type a hook may return, but JavaScript may: an explicit `input: undefined` changes nothing.
    const nothing = await edited(() => ({ input: undefined }) as never);
    expect(nothing.toolCalls[0]?.result.output).toBe("mailed eve");
  });
});
