/**
 * Approvals (issue 16): a tool call that waits for a person. Every resume here goes through
 * export → JSON → restore into a new session object first, as it would on another machine.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { approvalDigest } from "../../src/agent/approval-digest.ts";
import type { StoredApproval } from "../../src/agent/approvals.ts";
import {
  type AgentSession,
  type ApprovalDecision,
  createAgentSession,
  createSession,
  defineTool,
  parseSessionState,
  type SessionOptions,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, gate, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

/** A tool that records what it ran with; `needsApproval` as given. */
function sendTool(needsApproval = true) {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "send",
    description: "Sends a message",
    input: z.object({ to: z.string(), text: z.string().max(40) }),
    needsApproval,
    execute: (args) => {
      ran.push(args);
      return `sent to ${args.to}`;
    },
  });
  return { tool, ran };
}

function lookupTool() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "lookup",
    description: "Looks something up",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    execute: (args) => {
      ran.push(args);
      return "found";
    },
  });
  return { tool, ran };
}

async function start(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    ...extra,
  };
  const session = okValue(await createAgentSession(options));
  return { model, options, session };
}

/** The session as another machine would get it: exported, through JSON, restored into a new object. */
async function moved(session: AgentSession, options: SessionOptions): Promise<AgentSession> {
  const json = JSON.stringify(session.export());
  return okValue(await createAgentSession({ ...options, restore: JSON.parse(json) }));
}

/** The tool_result blocks of the last request the model received, in order. */
function lastToolResults(model: ReturnType<typeof createScriptedModel>): Array<Record<string, unknown>> {
  const body = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<Record<string, unknown>>).filter((block) => block.type === "tool_result")
      : [],
  );
}

describe("a call that needs approval pauses the run", () => {
  it("the other calls run, the run ends ok with stopReason approval, and the pause is in the state", async () => {
    const send = sendTool();
    const lookup = lookupTool();
    const { model, options, session } = await start(
      [calls(["lookup", { q: "ada" }], ["send", { to: "ada", text: "hi" }]), says("done")],
      { tools: [send.tool, lookup.tool] },
    );
    const paused = await session.chat("tell ada hi");
    expect(paused.ok).toBe(true);
    if (!paused.ok) return;
    expect(paused.value.stopReason).toBe("approval");
    expect(paused.value.pendingApprovals).toEqual([
      {
        toolCallId: expect.any(String),
        toolName: "send",
        args: { to: "ada", text: "hi" },
        requestedAt: expect.any(Number),
      },
    ]);
    expect(lookup.ran).toEqual([{ q: "ada" }]);
    expect(send.ran).toEqual([]);
    expect(model.requests).toHaveLength(1);
    const state = session.export();
    expect(state.pendingApprovals).toHaveLength(1);
    expect(state.pendingApprovals[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(state.pendingResults.map((result) => result.output)).toEqual(["found"]);
    expect(session.snapshot().pendingApprovals).toBe(1);
    // Nothing runs on restore.
    const restored = await moved(session, options);
    expect(send.ran).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(restored.export()).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it("approved on another machine, the call runs and the next request pairs every call with one result", async () => {
    const send = sendTool();
    const lookup = lookupTool();
    const { model, options, session } = await start(
      [calls(["lookup", { q: "ada" }], ["send", { to: "ada", text: "hi" }]), says("all sent")],
      { tools: [send.tool, lookup.tool] },
    );
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const elsewhere = await moved(session, options);
    const resumed = await elsewhere.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && [resumed.value.stopReason, resumed.value.text]).toEqual(["complete", "all sent"]);
    expect(send.ran).toEqual([{ to: "ada", text: "hi" }]);
    expect(lastToolResults(model).map((block) => [block.tool_use_id !== undefined, block.content])).toEqual([
      [true, "found"],
      [true, "sent to ada"],
    ]);
    const state = elsewhere.export();
    expect(state.pendingApprovals).toEqual([]);
    expectConsistent(state.messages);
    expect(state.messages.filter((message) => message.role === "tool_result")).toHaveLength(1);
  });

  it("denied, the call gets an error result with the reason and the loop goes on", async () => {
    const send = sendTool();
    const { model, options, session } = await start(
      [calls(["send", { to: "bob", text: "x" }]), says("ok, not sent")],
      { tools: [send.tool] },
    );
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const resumed = await (await moved(session, options)).resume([
      { toolCallId: id, approved: false, reason: "not to bob" },
    ]);
    expect(resumed.ok && resumed.value.text).toBe("ok, not sent");
    expect(send.ran).toEqual([]);
    expect(lastToolResults(model)).toMatchObject([
      { content: "The user denied this tool call: not to bob", is_error: true },
    ]);
  });

  it("needsApproval as a function sees the validated arguments; false runs at once", async () => {
    const seen: unknown[] = [];
    const ran: unknown[] = [];
    const pay = defineTool({
      name: "pay",
      description: "Pays",
      input: z.object({ usd: z.coerce.number() }),
      needsApproval: (args, context) => {
        seen.push([args, typeof context.toolCallId]);
        return args.usd > 10;
      },
      execute: (args) => {
        ran.push(args.usd);
        return "paid";
      },
    });
    const { session } = await start([calls(["pay", { usd: "5" }], ["pay", { usd: 40 }]), says("x")], {
      tools: [pay],
    });
    const paused = await session.chat("go");
    expect(seen).toEqual([
      [{ usd: 5 }, "string"],
      [{ usd: 40 }, "string"],
    ]);
    expect(ran).toEqual([5]);
    expect(paused.ok && paused.value.pendingApprovals?.map((approval) => approval.args)).toEqual([
      { usd: 40 },
    ]);
  });

  it("a needsApproval that throws fails the call: it does not run and nothing waits", async () => {
    const ran: unknown[] = [];
    const tool = defineTool({
      name: "risky",
      description: "Risky",
      inputSchema: { type: "object" },
      needsApproval: () => {
        throw new Error("policy service down");
      },
      execute: () => ran.push(1),
    });
    const { session } = await start([calls(["risky", {}]), says("x")], { tools: [tool] });
    const result = await session.chat("go");
    expect(result.ok && result.value.stopReason).toBe("complete");
    expect(ran).toEqual([]);
    expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringContaining("policy service down"),
    });
  });

  it("a preToolUse hook may ask, with a reason; a later hook's deny still wins", async () => {
    const lookup = lookupTool();
    const { session } = await start([calls(["lookup", { q: "a" }], ["lookup", { q: "secret" }]), says("x")], {
      tools: [lookup.tool],
      hooks: {
        preToolUse: [
          () => ({ decision: "ask", reason: "every lookup is checked" }),
          ({ toolCall }) =>
            toolCall.args.q === "secret" ? { decision: "deny", reason: "never secret" } : undefined,
        ],
      },
    });
    const events: string[] = [];
    const run = session.stream("go");
    for await (const event of run)
      if (event.type === "approval-requested") events.push(event.approval.toolName);
    const paused = await run.result;
    expect(events).toEqual(["lookup"]);
    expect(paused.ok && paused.value.pendingApprovals).toMatchObject([
      { args: { q: "a" }, reason: "every lookup is checked" },
    ]);
    expect(session.export().pendingResults).toMatchObject([{ output: "never secret", isError: true }]);
  });
});

describe("decisions", () => {
  async function pausedOnThree() {
    const send = sendTool();
    const script = [
      calls(
        ["send", { to: "a", text: "1" }],
        ["send", { to: "b", text: "2" }],
        ["send", { to: "c", text: "3" }],
      ),
      says("done"),
    ];
    const { model, options, session } = await start(script, { tools: [send.tool] });
    const paused = await session.chat("go");
    const ids = (paused.ok ? (paused.value.pendingApprovals ?? []) : []).map(
      (approval) => approval.toolCallId,
    );
    return { send, model, options, session, ids };
  }

  it("deciding only some of a parallel batch pauses again on the rest; results come back in the model's order", async () => {
    const { send, model, options, session, ids } = await pausedOnThree();
    expect(ids).toHaveLength(3);
    const second = await moved(session, options);
    const partial = await second.resume([{ toolCallId: ids[1] as string, approved: true }]);
    expect(partial.ok && partial.value.stopReason).toBe("approval");
    expect(partial.ok && partial.value.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual([
      ids[0],
      ids[2],
    ]);
    expect(send.ran).toEqual([{ to: "b", text: "2" }]);
    expect(model.requests).toHaveLength(1);
    const third = await moved(second, options);
    const done = await third.resume([
      { toolCallId: ids[2] as string, approved: false },
      { toolCallId: ids[0] as string, approved: true },
    ]);
    expect(done.ok && done.value.text).toBe("done");
    expect(send.ran).toEqual([
      { to: "b", text: "2" },
      { to: "a", text: "1" },
    ]);
    expect(lastToolResults(model).map((block) => block.content)).toEqual([
      "sent to a",
      "sent to b",
      "The user denied this tool call",
    ]);
    expectConsistent(third.export().messages);
  });

  it("edited arguments run when the schema takes them, and are refused — running nothing — when not", async () => {
    const { send, options, session, ids } = await pausedOnThree();
    const restored = await moved(session, options);
    const bad = await restored.resume([
      { toolCallId: ids[0] as string, approved: true, args: { to: "a", text: "x".repeat(41) } },
    ]);
    expect(!bad.ok && bad.error).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_INVALID",
      path: "decisions.0.args",
    });
    expect(send.ran).toEqual([]);
    expect(restored.snapshot().pendingApprovals).toBe(3);
    const decisions: ApprovalDecision[] = ids.map((toolCallId, index) => ({
      toolCallId,
      approved: true,
      ...(index === 0 ? { args: { to: "a", text: "edited" } } : {}),
    }));
    const good = await restored.resume(decisions);
    expect(good.ok && good.value.stopReason).toBe("complete");
    expect(send.ran).toHaveLength(3);
    expect(send.ran).toContainEqual({ to: "a", text: "edited" });
    expect(good.ok && good.value.toolCalls[0]?.toolCall.args).toEqual({ to: "a", text: "edited" });
  });

  it.each([
    [
      "an unknown id",
      (ids: string[]) => [
        { toolCallId: "nope", approved: true },
        { toolCallId: ids[0], approved: true },
      ],
      "decisions.0.toolCallId",
    ],
    [
      "a duplicate",
      (ids: string[]) => [
        { toolCallId: ids[0], approved: true },
        { toolCallId: ids[0], approved: false },
      ],
      "decisions.1.toolCallId",
    ],
    ["no decisions", () => [], "decisions"],
    ["not a decision", () => ["yes"], "decisions.0"],
    ["approved missing", (ids: string[]) => [{ toolCallId: ids[0] }], "decisions.0.approved"],
    [
      "an unknown field",
      (ids: string[]) => [{ toolCallId: ids[0], approved: true, aproved: true }],
      "decisions.0.aproved",
    ],
    [
      "args on a denial",
      (ids: string[]) => [{ toolCallId: ids[0], approved: false, args: {} }],
      "decisions.0.args",
    ],
    [
      "a toolName that is not the call's tool",
      (ids: string[]) => [{ toolCallId: ids[0], toolName: "lookup", approved: true }],
      "decisions.0.toolName",
    ],
  ])("%s is refused with APPROVAL_INVALID and nothing runs", async (_, decisions, path) => {
    const { send, model, options, session, ids } = await pausedOnThree();
    const restored = await moved(session, options);
    const refused = await restored.resume(decisions(ids) as ApprovalDecision[]);
    expect(!refused.ok && refused.error).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_INVALID",
      path,
    });
    expect(send.ran).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(restored.snapshot().pendingApprovals).toBe(3);
  });

  it("approving a call in a session restored without its tools is refused, and the pause stays", async () => {
    const { send, model, options, session, ids } = await pausedOnThree();
    const { tools: _, ...withoutTools } = options;
    const restored = await moved(session, withoutTools);
    const [first, second, third] = ids as [string, string, string];
    const refused = await restored.resume([
      { toolCallId: first, approved: false },
      { toolCallId: second, approved: true },
    ]);
    expect(!refused.ok && refused.error).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_INVALID",
      path: "decisions.1.approved",
      details: { toolCallId: second, toolName: "send" },
    });
    expect(!refused.ok && refused.error.message).toMatch(/no tool "send"/);
    expect(model.requests).toHaveLength(1);
    expect(restored.snapshot().pendingApprovals).toBe(3);
    // Given its tools again, the same pause runs the approved calls.
    const again = await moved(restored, options);
    const done = await again.resume(
      ids.map((toolCallId) => ({ toolCallId, approved: toolCallId !== third })),
    );
    expect(done.ok).toBe(true);
    expect(send.ran).toEqual([
      { to: "a", text: "1" },
      { to: "b", text: "2" },
    ]);
  });

  it("a decision replayed after it was used is refused as a replay, and runs nothing again", async () => {
    const { send, model, options, session, ids } = await pausedOnThree();
    const once = ids.map((toolCallId) => ({ toolCallId, approved: true }));
    const before = session.export();
    await (await moved(session, options)).resume(once);
    expect(send.ran).toHaveLength(3);
    // The same decisions against the state after they were used, and against the state before.
    const after = okValue(
      await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(before)) }),
    );
    await after.resume(once);
    const replayed = await after.resume(once);
    expect(!replayed.ok && replayed.error).toMatchObject({
      code: "APPROVAL_INVALID",
      details: { replayed: true },
    });
    expect(send.ran).toHaveLength(6); // the old state resumed once more — that is a copy, not a replay
    expect(model.requests).toHaveLength(3);
  });

  it("chat while calls wait is APPROVAL_PENDING naming them; nothing is sent", async () => {
    const { model, session, ids } = await pausedOnThree();
    const refused = await session.chat("and another thing");
    expect(!refused.ok && refused.error).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_PENDING",
      details: { toolCallIds: ids },
    });
    expect(!refused.ok && refused.error.message).toContain(ids[0]);
    const streamed = session.stream("x", { mode: "followUp" });
    const result = await streamed.result;
    expect(!result.ok && result.error.code).toBe("APPROVAL_PENDING");
    expect(model.requests).toHaveLength(1);
  });

  it("resume with nothing pending is APPROVAL_INVALID", async () => {
    const { session } = await start([says("hi")]);
    await session.chat("hi");
    const refused = await session.resume([{ toolCallId: "x", approved: true }]);
    expect(!refused.ok && refused.error.code).toBe("APPROVAL_INVALID");
  });
});

describe("always allow, always deny", () => {
  it("is remembered in the state, answers the batch's other calls, and later calls do not ask", async () => {
    const send = sendTool();
    const { model, options, session } = await start(
      [
        calls(["send", { to: "a", text: "1" }], ["send", { to: "b", text: "2" }]),
        calls(["send", { to: "c", text: "3" }]),
        says("done"),
      ],
      { tools: [send.tool] },
    );
    const paused = await session.chat("go");
    const first = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const restored = await moved(session, options);
    const done = await restored.resume([{ toolCallId: first, approved: true, always: true }]);
    expect(done.ok && done.value.stopReason).toBe("complete");
    expect(send.ran.map((args) => (args as { to: string }).to)).toEqual(["a", "b", "c"]);
    expect(restored.export().toolPermissions).toEqual({ send: "allow" });
    expect(model.requests).toHaveLength(3);
  });

  it("always deny answers later calls with an error result, without asking", async () => {
    const send = sendTool();
    const { model, options, session } = await start(
      [
        calls(["send", { to: "a", text: "1" }]),
        says("ok"),
        calls(["send", { to: "b", text: "2" }]),
        says("fine"),
      ],
      { tools: [send.tool] },
    );
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const restored = await moved(session, options);
    await restored.resume([{ toolCallId: id, approved: false, always: true, reason: "no sending" }]);
    const again = await (await moved(restored, options)).chat("try again");
    expect(again.ok && again.value.stopReason).toBe("complete");
    expect(send.ran).toEqual([]);
    expect(lastToolResults(model).at(-1)).toMatchObject({
      content: "The user always denies this tool",
      is_error: true,
    });
  });
});

describe("review fixes", () => {
  it("a hook's ask still asks after an always allow of that tool", async () => {
    const send = sendTool();
    const { options, session } = await start(
      [
        calls(["send", { to: "a", text: "1" }]),
        says("ok"),
        calls(["send", { to: "b", text: "2" }]),
        says("x"),
      ],
      {
        tools: [send.tool],
        hooks: {
          preToolUse: ({ toolCall }) =>
            toolCall.args.to === "b" ? { decision: "ask", reason: "b is dangerous" } : undefined,
        },
      },
    );
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const restored = await moved(session, options);
    await restored.resume([{ toolCallId: id, approved: true, always: true }]);
    const again = await restored.chat("and b");
    expect(again.ok && again.value.stopReason).toBe("approval");
    expect(again.ok && again.value.pendingApprovals?.[0]?.reason).toBe("b is dangerous");
    expect(send.ran).toEqual([{ to: "a", text: "1" }]);
  });

  it("a resume whose signal is already aborted runs nothing and keeps the pause", async () => {
    const send = sendTool();
    const { options, session } = await start([calls(["send", { to: "a", text: "1" }]), says("x")], {
      tools: [send.tool],
    });
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const restored = await moved(session, options);
    const aborted = await restored.resume([{ toolCallId: id, approved: true }], {
      signal: AbortSignal.abort(),
    });
    expect(!aborted.ok && aborted.error.code).toBe("ABORTED");
    expect(send.ran).toEqual([]);
    expect(restored.export().pendingApprovals).toHaveLength(1);
    const resumed = await restored.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.stopReason).toBe("complete");
  });

  it.each([
    ["an undefined field", { to: "a", text: "1", extra: undefined }],
    ["a Date", { to: "a", text: "1", when: new Date(0) }],
    ["a BigInt", { to: "a", text: "1", n: 1n }],
  ])(
    "a hook that asks with input holding %s is a HookError: the call does not run or pause",
    async (_, input) => {
      const send = sendTool(false);
      const { session } = await start([calls(["send", { to: "a", text: "1" }]), says("x")], {
        tools: [send.tool],
        hooks: { preToolUse: () => ({ decision: "ask", input: input as never }) },
      });
      const result = await session.chat("go");
      expect(result.ok && result.value.stopReason).toBe("complete");
      expect(send.ran).toEqual([]);
      expect(result.ok && result.value.toolCalls[0]?.result.output).toContain("input must be plain JSON");
      expect(() => parseSessionState(JSON.parse(JSON.stringify(session.export())))).not.toThrow();
    },
  );
});

describe("safe by construction", () => {
  async function pausedState(extra: Partial<SessionOptions> = {}) {
    const send = sendTool();
    const started = await start([calls(["send", { to: "ada", text: "hi" }]), says("sent")], {
      tools: [send.tool],
      ...extra,
    });
    await started.session.chat("go");
    return { ...started, send, state: JSON.parse(JSON.stringify(started.session.export())) as SessionState };
  }

  it("pending arguments edited after the pause are refused on restore (APPROVAL_TAMPERED)", async () => {
    const { options, state, send } = await pausedState();
    (state.pendingApprovals[0] as { args: unknown }).args = { to: "mallory", text: "hi" };
    expect(failure(await createAgentSession({ ...options, restore: state }))).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
    });
    expect(send.ran).toEqual([]);
  });

  it("a pending approval spliced into another session's state is refused (the digest binds the session)", async () => {
    const { state } = await pausedState();
    const other = await pausedState();
    const spliced = { ...other.state, pendingApprovals: state.pendingApprovals };
    // The same call id, so only the session binding tells them apart.
    for (const message of spliced.messages)
      if (message.role === "assistant")
        for (const part of message.content)
          if (part.type === "tool_call") part.id = state.pendingApprovals[0]?.toolCallId as string;
    expect(failure(await createAgentSession({ ...other.options, restore: spliced }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
    });
  });

  it("a whole paused state restored under a new session id is verified under its own, then bound to the new one", async () => {
    const secret = "a-server-side-secret-of-some-length";
    const { options, state, send } = await pausedState({ approvalSecret: secret });
    const copy = okValue(await createAgentSession({ ...options, sessionId: "the-copy", restore: state }));
    const exported = copy.export();
    expect(exported.sessionId).toBe("the-copy");
    expect(exported.pendingApprovals[0]?.digest).not.toBe(state.pendingApprovals[0]?.digest);
    // The copy's export restores as itself, and runs once approved.
    const again = okValue(
      await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(exported)) }),
    );
    const id = state.pendingApprovals[0]?.toolCallId as string;
    const resumed = await again.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("sent");
    expect(send.ran).toEqual([{ to: "ada", text: "hi" }]);
    // An edited state is still refused under a new id: it is checked under the id it was sealed with.
    const edited = structuredClone(state);
    (edited.pendingApprovals[0] as { args: unknown }).args = { to: "mallory", text: "hi" };
    expect(
      failure(await createAgentSession({ ...options, sessionId: "the-copy", restore: edited })),
    ).toMatchObject({ code: "APPROVAL_TAMPERED" });
  });

  it.each([
    [
      "a pending call the last message never made",
      (state: SessionState) => {
        (state.pendingApprovals[0] as { toolCallId: string }).toolCallId = "made-up";
      },
      "pendingApprovals.0",
    ],
    [
      "a pending call under another tool's name",
      (state: SessionState) => {
        (state.pendingApprovals[0] as { toolName: string }).toolName = "other";
      },
      "pendingApprovals.0",
    ],
    [
      "results held with nothing pending",
      (state: SessionState) => {
        state.pendingResults = [{ type: "tool_result", toolCallId: "x", output: "", isError: false }];
        state.pendingApprovals = [];
      },
      "messages.1",
    ],
    [
      "a digest that is not one",
      (state: SessionState) => {
        (state.pendingApprovals[0] as { digest: string }).digest = "abc";
      },
      "pendingApprovals.0.digest",
    ],
  ])("a state with %s is CONFIG_INVALID", async (_, tamper, path) => {
    const { state } = await pausedState();
    tamper(state);
    expect(() => parseSessionState(state)).toThrow(expect.objectContaining({ code: "CONFIG_INVALID", path }));
  });

  it("with approvalSecret, pauses are signed; unsigned or wrongly signed ones are refused, failing closed", async () => {
    const secret = "a-server-side-secret-of-some-length";
    const { options, state, send } = await pausedState({ approvalSecret: secret });
    expect(state.pendingApprovals[0]?.signature).toMatch(/^[0-9a-f]{64}$/);
    const unsigned = structuredClone(state);
    delete (unsigned.pendingApprovals[0] as { signature?: string }).signature;
    expect(failure(await createAgentSession({ ...options, restore: unsigned }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
    });
    expect(
      failure(
        await createAgentSession({
          ...options,
          approvalSecret: "another-secret-of-enough-length",
          restore: state,
        }),
      ),
    ).toMatchObject({ code: "APPROVAL_TAMPERED" });
    // A forger who edits the arguments and recomputes the (public) digest still lacks the secret.
    const forged = await pausedState();
    const forgedState = forged.state;
    expect(
      failure(
        await createAgentSession({ ...options, restore: { ...forgedState, sessionId: state.sessionId } }),
      ),
    ).toMatchObject({ code: "APPROVAL_TAMPERED" });
    const restored = okValue(await createAgentSession({ ...options, restore: state }));
    const id = state.pendingApprovals[0]?.toolCallId as string;
    const resumed = await restored.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("sent");
    expect(send.ran).toHaveLength(1);
  });

  it("a state signed with an approvalSecret is refused by a session without one, failing closed", async () => {
    const secret = "a-server-side-secret-of-some-length";
    const { options, state, send } = await pausedState({ approvalSecret: secret });
    const { approvalSecret: _, ...forgetful } = options;
    expect(failure(await createAgentSession({ ...forgetful, restore: state }))).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0.signature",
      details: { reason: "secret-missing" },
      message: expect.stringContaining("this session has none to verify them"),
    });
    // Signed standing permissions alone (no pause) are refused the same way.
    const restored = okValue(await createAgentSession({ ...options, restore: state }));
    const id = state.pendingApprovals[0]?.toolCallId as string;
    await restored.resume([{ toolCallId: id, approved: true, always: true }]);
    const standing = JSON.parse(JSON.stringify(restored.export())) as SessionState;
    expect(standing.pendingApprovals).toEqual([]);
    expect(standing.toolPermissionsSignature).toMatch(/^[0-9a-f]{64}$/);
    expect(failure(await createAgentSession({ ...forgetful, restore: standing }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.toolPermissionsSignature",
    });
    // With the secret both restore, and the call ran once.
    expect((await createAgentSession({ ...options, restore: standing })).ok).toBe(true);
    expect(send.ran).toHaveLength(1);
  });

  it("a short approvalSecret is a ConfigError", async () => {
    expect(
      failure(
        await createAgentSession({
          model: "anthropic/claude-sonnet-5-5",
          apiKey: "k",
          approvalSecret: "short",
        }),
      ),
    ).toMatchObject({ code: "CONFIG_INVALID", path: "approvalSecret" });
  });

  it("abort while paused keeps the pause; abort during a resumed tool leaves a paired, restorable state", async () => {
    const { tool, hasStarted } = gate();
    const guarded = defineTool({ ...tool, needsApproval: true });
    const { options, session } = await start([calls(["gate", {}]), says("never")], { tools: [guarded] });
    const paused = await session.chat("go");
    session.abort();
    const state = session.export();
    expect(state.pendingApprovals).toHaveLength(1);
    const restored = okValue(
      await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(state)) }),
    );
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const resumed = restored.resume([{ toolCallId: id, approved: true }]);
    await hasStarted;
    // While the approved tool runs, an export still shows the pause (the results are not in yet).
    expect(restored.export().pendingApprovals).toHaveLength(1);
    restored.abort();
    const result = await resumed;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    const after = restored.export();
    expect(after.pendingApprovals).toEqual([]);
    expectConsistent(after.messages);
    expect(() => parseSessionState(JSON.parse(JSON.stringify(after)))).not.toThrow();
  });

  it("a resume refused before it starts (no API key) keeps the pause", async () => {
    const { options, state, send } = await pausedState();
    // No key and the public endpoint: the run is refused before it reaches the paused turn.
    const { apiKey: _, fetch: __, ...keyless } = options;
    const restored = okValue(await createAgentSession({ ...keyless, restore: state }));
    const id = state.pendingApprovals[0]?.toolCallId as string;
    const refused = await restored.resume([{ toolCallId: id, approved: true }]);
    expect(!refused.ok && refused.error.code).toBe("CONFIG_INVALID");
    expect(send.ran).toEqual([]);
    expect(restored.export().pendingApprovals).toHaveLength(1);
  });
});

describe("second review", () => {
  const secret = "a-server-side-secret-of-some-length";

  async function pausedOn(args: Record<string, unknown>, extra: Partial<SessionOptions> = {}) {
    const send = sendTool(extra.hooks === undefined);
    const started = await start([calls(["send", args]), says("sent")], { tools: [send.tool], ...extra });
    const paused = await started.session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const restored = await moved(started.session, started.options);
    return { ...started, send, id, restored };
  }

  it("with approvalSecret, standing permissions are signed: a forged always allow is refused", async () => {
    const { options, id, restored } = await pausedOn({ to: "a", text: "1" }, { approvalSecret: secret });
    await restored.resume([{ toolCallId: id, approved: true, always: true }]);
    const state = JSON.parse(JSON.stringify(restored.export())) as SessionState;
    expect(state.toolPermissions).toEqual({ send: "allow" });
    expect(state.toolPermissionsSignature).toMatch(/^[0-9a-f]{64}$/);
    expect((await createAgentSession({ ...options, restore: state })).ok).toBe(true);
    for (const forge of [
      (forged: SessionState) => {
        forged.toolPermissions = { send: "allow", lookup: "allow" };
      },
      (forged: SessionState) => {
        delete forged.toolPermissionsSignature;
      },
      (forged: SessionState) => {
        forged.sessionId = "another";
      },
    ]) {
      const forged = structuredClone(state);
      forge(forged);
      expect(failure(await createAgentSession({ ...options, restore: forged }))).toMatchObject({
        code: "APPROVAL_TAMPERED",
        path: "restore.toolPermissions",
      });
    }
    // A state that never had a secret cannot claim standing permissions under one.
    const plain = await pausedOn({ to: "a", text: "1" });
    await plain.restored.resume([{ toolCallId: plain.id, approved: true, always: true }]);
    expect(failure(await createAgentSession({ ...options, restore: plain.restored.export() }))).toMatchObject(
      {
        code: "APPROVAL_TAMPERED",
        path: "restore.toolPermissions",
      },
    );
  });

  it.each([
    [
      "reason",
      (approval: Record<string, unknown>) => Object.assign(approval, { reason: "the boss said so" }),
    ],
    ["requestedAt", (approval: Record<string, unknown>) => Object.assign(approval, { requestedAt: 1 })],
  ])("with approvalSecret, a %s edited after the pause is refused", async (_, edit) => {
    const { options, restored } = await pausedOn({ to: "a", text: "1" }, { approvalSecret: secret });
    const state = JSON.parse(JSON.stringify(restored.export())) as SessionState;
    edit(state.pendingApprovals[0] as unknown as Record<string, unknown>);
    expect(failure(await createAgentSession({ ...options, restore: state }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
    });
  });

  it("arguments with a __proto__ key survive export, JSON and restore, and reach the tool as an own key", async () => {
    const ran: unknown[] = [];
    const raw = defineTool({
      name: "raw",
      description: "Takes anything",
      inputSchema: { type: "object" },
      needsApproval: true,
      execute: (args) => {
        ran.push(args);
        return "done";
      },
    });
    const args = JSON.parse('{"__proto__":{"polluted":true},"q":"a"}') as Record<string, unknown>;
    const { options, session } = await start([calls(["raw", args]), says("ok")], { tools: [raw] });
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const restored = await moved(session, options);
    const resumed = await restored.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("ok");
    expect(ran).toHaveLength(1);
    expect(Object.hasOwn(ran[0] as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a refused stream still ends with run-end: stream() while paused, resumeStream() with a bad decision", async () => {
    const { restored } = await pausedOn({ to: "a", text: "1" });
    for (const [run, code] of [
      [restored.stream("hello?"), "APPROVAL_PENDING"],
      [restored.resumeStream([{ toolCallId: "nope", approved: true }]), "APPROVAL_INVALID"],
    ] as const) {
      const events = [];
      for await (const event of run) events.push(event);
      expect(events.map((event) => event.type)).toEqual(["run-end"]);
      const end = events[0] as { result: { ok: boolean; error?: { code: string } } };
      expect(end.result.ok).toBe(false);
      expect(end.result.error?.code).toBe(code);
      expect((await run.result).ok).toBe(false);
    }
    expect(restored.export().pendingApprovals).toHaveLength(1);
  });

  it("a call announced as waiting still gets its tool-result when the batch's run ends (aborted) instead", async () => {
    const { tool, hasStarted } = gate();
    const send = sendTool();
    const { session } = await start([calls(["send", { to: "a", text: "1" }], ["gate", {}]), says("never")], {
      tools: [send.tool, tool],
    });
    const run = session.stream("go");
    const events: Array<{ type: string; toolCall?: { id: string }; approval?: { toolCallId: string } }> = [];
    const read = (async () => {
      for await (const event of run) events.push(event as never);
    })();
    await hasStarted;
    session.abort();
    await read;
    const asked = events.filter((event) => event.type === "approval-requested");
    expect(asked).toHaveLength(1);
    const answered = events.filter(
      (event) => event.type === "tool-result" && event.toolCall?.id === asked[0]?.approval?.toolCallId,
    );
    expect(answered).toHaveLength(1);
    expect(send.ran).toEqual([]);
    expect(session.export().pendingApprovals).toEqual([]);
    expectConsistent(session.export().messages);
  });

  it("a waiting call left undecided by a resume that is aborted gets its tool-result event", async () => {
    const { tool, hasStarted } = gate();
    const guarded = defineTool({ ...tool, needsApproval: true });
    const send = sendTool();
    const { options, session } = await start(
      [calls(["gate", {}], ["send", { to: "a", text: "1" }]), says("never")],
      { tools: [guarded, send.tool] },
    );
    const paused = await session.chat("go");
    const ids = (paused.ok ? (paused.value.pendingApprovals ?? []) : []).map((a) => a.toolCallId);
    const restored = await moved(session, options);
    const run = restored.resumeStream([{ toolCallId: ids[0] as string, approved: true }]);
    const events: Array<{ type: string; toolCall?: { id: string } }> = [];
    const read = (async () => {
      for await (const event of run) events.push(event as never);
    })();
    await hasStarted;
    restored.abort();
    await read;
    const results = events.filter((event) => event.type === "tool-result").map((event) => event.toolCall?.id);
    expect(ids).toHaveLength(2);
    expect(results.sort()).toEqual([...ids].sort());
    expect(send.ran).toEqual([]);
    expectConsistent(restored.export().messages);
  });

  it("abort() while a resume's decisions are being checked refuses that resume: nothing runs, the pause stays", async () => {
    const { send, id, restored } = await pausedOn({ to: "a", text: "1" });
    const resumed = restored.resume([{ toolCallId: id, approved: true, args: { to: "b", text: "2" } }]);
    restored.abort();
    const result = await resumed;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(send.ran).toEqual([]);
    expect(restored.export().pendingApprovals).toHaveLength(1);
    const again = await restored.resume([{ toolCallId: id, approved: true }]);
    expect(again.ok && again.value.text).toBe("sent");
  });

  describe("arguments an approver edited go through the preToolUse hooks", () => {
    const ask = () => ({ decision: "ask" as const });

    it("a hook's deny of the edited arguments wins: the call does not run", async () => {
      const hooks = {
        preToolUse: [
          ask,
          ({ toolCall }: { toolCall: { args: Record<string, unknown> } }) =>
            toolCall.args.to === "mallory" ? { decision: "deny" as const, reason: "not mallory" } : undefined,
        ],
      };
      const { send, id, restored } = await pausedOn({ to: "a", text: "1" }, { hooks });
      const result = await restored.resume([
        { toolCallId: id, approved: true, args: { to: "mallory", text: "1" } },
      ]);
      expect(send.ran).toEqual([]);
      expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
        output: "not mallory",
        isError: true,
      });
    });

    it("a hook's ask is answered by the approval: the edited call runs", async () => {
      const { send, id, restored } = await pausedOn({ to: "a", text: "1" }, { hooks: { preToolUse: ask } });
      const result = await restored.resume([
        { toolCallId: id, approved: true, args: { to: "b", text: "2" } },
      ]);
      expect(result.ok && result.value.stopReason).toBe("complete");
      expect(send.ran).toEqual([{ to: "b", text: "2" }]);
    });

    it("a hook that would rewrite the approver's arguments leaves the call not run", async () => {
      const hooks = {
        preToolUse: ({ toolCall }: { toolCall: { args: Record<string, unknown> } }) => ({
          decision: "ask" as const,
          input: { ...toolCall.args, text: "rewritten" },
        }),
      };
      const { send, id, restored } = await pausedOn({ to: "a", text: "1" }, { hooks });
      expect(restored.export().pendingApprovals[0]?.args).toEqual({ to: "a", text: "rewritten" });
      const result = await restored.resume([
        { toolCallId: id, approved: true, args: { to: "b", text: "2" } },
      ]);
      expect(send.ran).toEqual([]);
      expect(result.ok && result.value.toolCalls[0]?.result.output).toContain(
        "a preToolUse hook changed the arguments the approver supplied",
      );
      expectConsistent(restored.export().messages);
    });
  });
});

describe("sequential tools wait in order", () => {
  /** Tools that write what they ran, in order, to one log; `send` needs approval. */
  function orderedTools() {
    const log: string[] = [];
    const send = defineTool({
      name: "send",
      description: "Sends a message",
      inputSchema: { type: "object", properties: { to: { type: "string" } } },
      needsApproval: true,
      execute: (args: { to?: string }) => {
        log.push(`send ${args.to}`);
        return `sent to ${args.to}`;
      },
    });
    const lookup = defineTool({
      name: "lookup",
      description: "Looks something up",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
      execute: (args: { q?: string }) => {
        log.push(`lookup ${args.q}`);
        return `found ${args.q}`;
      },
    });
    return { log, tools: [send, lookup] };
  }

  it("the calls after a waiting one do not start; approved on another machine, they run after it, in order", async () => {
    const { log, tools } = orderedTools();
    const { model, options, session } = await start(
      [calls(["lookup", { q: "a" }], ["send", { to: "ada" }], ["lookup", { q: "b" }]), says("done")],
      { tools, toolExecution: "sequential" },
    );
    const paused = await session.chat("go");
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    expect(log).toEqual(["lookup a"]);
    const state = session.export();
    const ids = (state.messages.at(-1)?.content ?? []).flatMap((part) =>
      part.type === "tool_call" ? [part.id] : [],
    );
    // The public list says what waits; the state also says which calls wait behind it.
    expect(paused.ok && paused.value.pendingApprovals).toEqual([
      { toolCallId: ids[1], toolName: "send", args: { to: "ada" }, requestedAt: expect.any(Number) },
    ]);
    expect(state.pendingApprovals[0]?.holds).toEqual([ids[2]]);
    expect(state.pendingResults.map((result) => result.toolCallId)).toEqual([ids[0]]);

    const elsewhere = await moved(session, options);
    const resumed = await elsewhere.resume([{ toolCallId: ids[1] as string, approved: true }]);
    expect(resumed.ok && [resumed.value.stopReason, resumed.value.text]).toEqual(["complete", "done"]);
    expect(log).toEqual(["lookup a", "send ada", "lookup b"]);
    expect(lastToolResults(model).map((block) => block.content)).toEqual([
      "found a",
      "sent to ada",
      "found b",
    ]);
    expectConsistent(elsewhere.export().messages);
  });

  it("a second call that needs approval is asked only once the first is decided, then runs after it", async () => {
    const { log, tools } = orderedTools();
    const { model, options, session } = await start(
      [calls(["send", { to: "ada" }], ["send", { to: "bob" }], ["lookup", { q: "c" }]), says("both")],
      { tools, toolExecution: "sequential" },
    );
    const first = await session.chat("go");
    const firstId = (first.ok && first.value.pendingApprovals?.[0]?.toolCallId) as string;
    expect(first.ok && first.value.pendingApprovals?.map((approval) => approval.args)).toEqual([
      { to: "ada" },
    ]);

    const mid = await moved(session, options);
    const second = await mid.resume([{ toolCallId: firstId, approved: false }]);
    // Denied: the next call starts, and it too waits (still holding the lookup).
    expect(second.ok && second.value.stopReason).toBe("approval");
    expect(second.ok && second.value.pendingApprovals?.map((approval) => approval.args)).toEqual([
      { to: "bob" },
    ]);
    expect(log).toEqual([]);
    expect(model.requests).toHaveLength(1);
    const secondId = (second.ok && second.value.pendingApprovals?.[0]?.toolCallId) as string;
    const again = await moved(mid, options);
    // The first decision was used: replaying it is refused and runs nothing.
    const replayed = await again.resume([{ toolCallId: firstId, approved: true }]);
    expect(!replayed.ok && replayed.error.code).toBe("APPROVAL_INVALID");
    expect(log).toEqual([]);
    const done = await again.resume([{ toolCallId: secondId, approved: true }]);
    expect(done.ok && done.value.text).toBe("both");
    expect(log).toEqual(["send bob", "lookup c"]);
    expect(lastToolResults(model).map((block) => [block.content, block.is_error ?? false])).toEqual([
      ["The user denied this tool call", true],
      ["sent to bob", false],
      ["found c", false],
    ]);
  });
  it("when the approved call stops the run, the calls it held are answered as not run, with their events", async () => {
    const { log, tools } = orderedTools();
    const { options, session } = await start(
      [calls(["send", { to: "ada" }], ["lookup", { q: "b" }]), says("never")],
      {
        tools,
        toolExecution: "sequential",
        hooks: { postToolUse: () => ({ decision: "stop", reason: "enough" }) },
      },
    );
    const paused = await session.chat("go");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const elsewhere = await moved(session, options);
    const events: string[] = [];
    for await (const event of elsewhere.resumeStream([{ toolCallId: id, approved: true }]))
      if (event.type === "tool-result") events.push(`${event.toolCall.name}: ${event.result.output}`);
    expect(log).toEqual(["send ada"]);
    expect(events).toEqual(["send: sent to ada", expect.stringMatching(/^lookup: .*not run/i)]);
    const state = elsewhere.export();
    expect(state.pendingApprovals).toEqual([]);
    expectConsistent(state.messages);
  });
});

describe("sequential tools: a tampered hold", () => {
  async function pausedSequential(extra: Partial<SessionOptions> = {}) {
    const send = sendTool();
    const lookup = lookupTool();
    const { options, session } = await start(
      [calls(["send", { to: "ada", text: "hi" }], ["lookup", { q: "a" }]), says("done")],
      { tools: [send.tool, lookup.tool], toolExecution: "sequential", ...extra },
    );
    await session.chat("go");
    return { options, state: JSON.parse(JSON.stringify(session.export())) as SessionState, lookup };
  }

  it("a held call removed from its hold, or held twice, is CONFIG_INVALID; edited ids are APPROVAL_TAMPERED", async () => {
    const { options, state, lookup } = await pausedSequential();
    const held = state.pendingApprovals[0]?.holds?.[0] as string;
    expect(held).toEqual(expect.any(String));
    const dropped = structuredClone(state);
    delete dropped.pendingApprovals[0]?.holds;
    expect(() => parseSessionState(dropped)).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", path: `messages.${state.messages.length - 1}` }),
    );
    const twice = structuredClone(state);
    (twice.pendingApprovals[0] as { holds: string[] }).holds = [held, held];
    expect(() => parseSessionState(twice)).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", path: "pendingApprovals.0.holds.1" }),
    );
    // A held call given a made-up result instead: its hold no longer matches the digest.
    const answered = structuredClone(state);
    delete answered.pendingApprovals[0]?.holds;
    answered.pendingResults.push({ type: "tool_result", toolCallId: held, output: "forged", isError: false });
    expect(failure(await createAgentSession({ ...options, restore: answered }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
    });
    expect(lookup.ran).toEqual([]);
  });

  it("with approvalSecret, a hold rewritten with a recomputed digest is refused by the signature", async () => {
    const secret = "a-server-side-secret-of-some-length";
    const { options, state, lookup } = await pausedSequential({ approvalSecret: secret });
    const held = state.pendingApprovals[0]?.holds?.[0] as string;
    const forged = structuredClone(state);
    const approval = forged.pendingApprovals[0] as StoredApproval;
    delete approval.holds;
    forged.pendingResults.push({ type: "tool_result", toolCallId: held, output: "forged", isError: false });
    approval.digest = await approvalDigest(state.sessionId, approval);
    expect(
      failure(await createAgentSession({ ...options, approvalSecret: secret, restore: forged })),
    ).toMatchObject({ code: "APPROVAL_TAMPERED", message: expect.stringContaining("signature") });
    expect(lookup.ran).toEqual([]);
  });
});

describe("createSession", () => {
  it("canUseTool may answer ask: the result reports the pause, and resume continues through receive", async () => {
    const send = sendTool(false);
    const model = createScriptedModel({
      script: [calls(["send", { to: "ada", text: "hi" }]), says("sent it")],
    });
    const session = okValue(
      await createSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [send.tool],
        canUseTool: () => ({ behavior: "ask", message: "sending needs a person" }),
      }),
    );
    await session.send("go");
    const first = [];
    for await (const message of session.receive()) first.push(message);
    const result = first.at(-1);
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      stopReason: "approval",
      pendingApprovals: [{ toolName: "send", reason: "sending needs a person" }],
    });
    const id = (result as { pendingApprovals: Array<{ toolCallId: string }> }).pendingApprovals[0]
      ?.toolCallId;
    expect(failure(await session.resume([{ toolCallId: "nope", approved: true }]))).toMatchObject({
      code: "APPROVAL_INVALID",
    });
    await session.resume([{ toolCallId: id as string, approved: true }]);
    const second = [];
    for await (const message of session.receive()) second.push(message);
    expect(second.map((message) => message.type)).toEqual(["user", "assistant", "result"]);
    expect(second.at(-1)).toMatchObject({ stopReason: "complete", text: "sent it" });
    expect(send.ran).toHaveLength(1);
  });

  it("canUseTool's timeout is configurable: a slow answer past it denies the call", async () => {
    const send = sendTool(false);
    const model = createScriptedModel({ script: [calls(["send", { to: "ada", text: "hi" }]), says("x")] });
    const session = okValue(
      await createSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [send.tool],
        canUseToolTimeoutMs: 20,
        canUseTool: (_name, _input, { signal }) =>
          new Promise((resolve) => signal.addEventListener("abort", () => resolve({ behavior: "allow" }))),
      }),
    );
    await session.send("go");
    const messages = [];
    for await (const message of session.receive()) messages.push(message);
    expect(send.ran).toEqual([]);
    const results = messages.flatMap((message) =>
      message.type === "user" && message.message.role === "tool_result" ? message.message.content : [],
    );
    expect(results[0]?.output).toContain("timed out after 20 ms");
  });

  it("a canUseToolTimeoutMs that is not a duration is a ConfigError", async () => {
    expect(
      failure(
        await createSession({ model: "anthropic/claude-sonnet-5-5", apiKey: "k", canUseToolTimeoutMs: -1 }),
      ),
    ).toMatchObject({ code: "CONFIG_INVALID", path: "canUseToolTimeoutMs" });
  });
});
