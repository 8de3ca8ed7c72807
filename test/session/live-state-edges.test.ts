/**
 * What a live session shows of itself mid-run (live-state.ts): an export taken while a tool runs
 * counts the usage of the run's completed turns only; during a resumed run the old pause is no
 * longer exported, nor is the resumed run's own turn whose tools still run; and a compaction that
 * keeps from any exported message (the very first included) survives an export.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type AgentSession,
  createAgentSession,
  defineTool,
  type SessionState,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";
import { NO_USAGE, sessionState } from "../support/session-state.ts";

const MODEL = uncheckedModel("anthropic/claude-sonnet-4-5");

/** A tool that exports the session each time it runs. */
function exportingTool(session: () => AgentSession, seen: SessionState[]) {
  return defineTool({
    name: "step",
    description: "A step",
    input: z.object({ n: z.number() }),
    execute: () => {
      seen.push(session().export());
      return "stepped";
    },
  });
}

const sendTool = defineTool({
  name: "send",
  description: "Sends",
  input: z.object({ to: z.string() }),
  needsApproval: true,
  execute: () => "sent",
});

const turnUsage = (input: number) => ({ input, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 });

describe("an export while a tool runs", () => {
  it("counts the usage of the run's completed turns, not the turn whose tools run", async () => {
    const seen: SessionState[] = [];
    const model = createScriptedModel({
      script: [
        { ...calls(["step", { n: 1 }]), usage: turnUsage(100) },
        { ...calls(["step", { n: 2 }]), usage: turnUsage(1000) },
        { ...says("done"), usage: turnUsage(10_000) },
      ],
    });
    let session: AgentSession | undefined;
    session = okValue(
      await createAgentSession({
        model: MODEL,
        apiKey: "k",
        fetch: model.fetch,
        tools: [exportingTool(() => session as AgentSession, seen)],
      }),
    );
    expect((await session.chat("go")).ok).toBe(true);
    expect(seen.map((state) => state.messages.length)).toEqual([1, 3]);
    expect(seen.map((state) => state.usage.input)).toEqual([0, 100]);
    expect(session.export().usage.input).toBe(11_100);
  });
});

describe("an export during a resumed run", () => {
  async function pausedSession(script: ScriptedTurn[], respond?: () => ScriptedTurn) {
    const seen: SessionState[] = [];
    let session: AgentSession | undefined;
    const model = createScriptedModel({
      script: [calls(["send", { to: "ada" }]), ...script],
      ...(respond === undefined ? {} : { respond }),
    });
    session = okValue(
      await createAgentSession({
        model: MODEL,
        apiKey: "k",
        fetch: model.fetch,
        tools: [sendTool, exportingTool(() => session as AgentSession, seen)],
      }),
    );
    const paused = okValue(await session.chat("tell ada"));
    expect(paused.stopReason).toBe("approval");
    const toolCallId = paused.pendingApprovals?.[0]?.toolCallId as string;
    return { session, seen, toolCallId };
  }

  it("no longer holds the pause once the approved calls are answered", async () => {
    const seen: SessionState[] = [];
    let session: AgentSession | undefined;
    // The request after the approved call ran: the conversation ends with its result.
    const { session: paused, toolCallId } = await pausedSession([], () => {
      seen.push((session as AgentSession).export());
      return says("done");
    });
    session = paused;
    expect(okValue(await session.resume([{ toolCallId, approved: true }])).text).toBe("done");
    expect(seen).toHaveLength(1);
    const [during] = seen as [SessionState];
    expect(during.messages.at(-1)?.role).toBe("tool_result");
    expect(during.pendingApprovals).toEqual([]);
    expect(during.pendingResults).toEqual([]);
  });

  it("leaves out the resumed run's own turn whose tools still run", async () => {
    const { session, seen, toolCallId } = await pausedSession([calls(["step", { n: 1 }]), says("done")]);
    expect(okValue(await session.resume([{ toolCallId, approved: true }])).text).toBe("done");
    const [during] = seen as [SessionState];
    // The prompt, the paused turn and its result: not the turn that called `step`.
    expect(during.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool_result"]);
    expect(during.pendingApprovals).toEqual([]);
  });
});

describe("a compaction kept from the first message", () => {
  const usage = NO_USAGE;
  const user = (id: string) => ({ id, role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 });
  const reply = (id: string) => ({
    id,
    role: "assistant",
    content: [{ type: "text", text: "hello" }],
    timestamp: 1,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage,
    stopReason: "complete",
  });
  const state = (messages: unknown[], firstKeptId: string) =>
    sessionState({ messages, compaction: { summary: "earlier", firstKeptId, at: 1 } });

  const four = [user("u1"), reply("a1"), user("u2"), reply("a2")];

  it.each([
    ["the only message", [user("u1")], "u1"],
    ["the first of several", four, "u1"],
    ["the second", four, "a1"],
    ["the last", four, "a2"],
  ])("survives an export when its first kept message is %s", async (_, messages, firstKeptId) => {
    const restore = state(messages, firstKeptId);
    const session = okValue(await createAgentSession({ model: MODEL, apiKey: "k", restore }));
    expect(session.export().compaction).toEqual({ summary: "earlier", firstKeptId, at: 1 });
  });
});
