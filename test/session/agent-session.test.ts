/**
 * Agent sessions: one run at a time, steer and follow-up delivery, the queue, abort and close, export
 * during a run, and moving a session to another provider.
 */
import { describe, expect, it } from "vitest";
import { type AgentSession, createAgentSession, defineTool, type SessionOptions } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, gate, requestBody, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

async function session(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const created = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      ...extra,
    }),
  );
  return { model, session: created };
}

/** The user texts of the last request, in order. */
function userTexts(body: unknown): string[] {
  const messages = (
    body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }
  ).messages;
  return messages.flatMap((message) =>
    message.role === "user"
      ? message.content.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : []))
      : [],
  );
}

describe("one run at a time", () => {
  it("a second prompt without a mode is SESSION_BUSY, not a race", async () => {
    const { tool, hasStarted, release } = gate();
    const { session: s } = await session([calls(["gate", {}]), says("done")], { tools: [tool] });
    const first = s.chat("start");
    await hasStarted;
    const second = await s.chat("me too");
    expect(!second.ok && second.error).toMatchObject({ _tag: "ConfigError", code: "SESSION_BUSY" });
    release();
    expect((await first).ok).toBe(true);
  });

  it("steer delivers the prompt after the running tools finish, in the same run", async () => {
    const { tool, hasStarted, release } = gate();
    const { model, session: s } = await session([calls(["gate", {}], ["gate", {}]), says("adjusted")], {
      tools: [tool],
    });
    const first = s.chat("start");
    await hasStarted;
    const steered = s.chat("Actually, use metric units", { mode: "steer" });
    release();
    const [result, steeredResult] = await Promise.all([first, steered]);
    expect(steeredResult).toBe(result);
    expect(result.ok && result.value.toolCalls.map((record) => record.result.output)).toEqual([
      "opened",
      "opened",
    ]);
    expect(userTexts(model.requests[1]?.body)).toEqual(["start", "Actually, use metric units"]);
    expect(result.ok && result.value.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "user",
      "assistant",
    ]);
  });

  it("followUp waits for the run to end and gets a run of its own; drainQueue drops what waits", async () => {
    const { tool, hasStarted, release } = gate();
    const { model, session: s } = await session(
      [calls(["gate", {}]), says("first done"), says("second done")],
      {
        tools: [tool],
      },
    );
    const first = s.chat("one");
    await hasStarted;
    const second = s.chat("two", { mode: "followUp" });
    const third = s.chat("three", { mode: "followUp" });
    expect(s.snapshot()).toMatchObject({ status: "running", queued: 2 });
    expect(s.export().queue.map((prompt) => prompt.content)).toEqual([
      [{ type: "text", text: "two" }],
      [{ type: "text", text: "three" }],
    ]);
    const drained = s.drainQueue();
    expect(drained.map((prompt) => prompt.content)).toEqual([
      [{ type: "text", text: "two" }],
      [{ type: "text", text: "three" }],
    ]);
    expect([(await second).ok, (await third).ok]).toEqual([false, false]);
    const again = s.chat("two, again", { mode: "followUp" });
    release();
    const results = await Promise.all([first, again]);
    expect(results.map((result) => result.ok && result.value.text)).toEqual(["first done", "second done"]);
    expect(model.requests).toHaveLength(3);
    expect(userTexts(model.requests[2]?.body)).toEqual(["one", "two, again"]);
  });

  it("a queued prompt whose signal aborts leaves the queue at once, ABORTED, and never reaches the model", async () => {
    const { tool, hasStarted, release } = gate();
    const { model, session: s } = await session(
      [calls(["gate", {}]), says("first done"), says("third done")],
      {
        tools: [tool],
      },
    );
    const first = s.chat("one");
    await hasStarted;
    const controller = new AbortController();
    const cancelled = s.chat("cancelled", { mode: "followUp", signal: controller.signal });
    const kept = s.chat("kept", { mode: "followUp" });
    controller.abort();
    const result = await cancelled; // before the run in flight ends: the gate is still shut
    expect(!result.ok && [result.error.code, result.error.message]).toEqual([
      "ABORTED",
      expect.stringContaining("waited in the queue"),
    ]);
    expect(s.snapshot()).toMatchObject({ status: "running", queued: 1 });
    release();
    expect([(await first).ok, (await kept).ok]).toEqual([true, true]);
    expect(userTexts(model.requests[2]?.body)).toEqual(["one", "kept"]);
    expect(JSON.stringify(s.export().messages)).not.toContain("cancelled");
  });

  it("a queued or steered stream that is stopped before its prompt is taken never sends it", async () => {
    const { tool, hasStarted, release } = gate();
    const { model, session: s } = await session([calls(["gate", {}]), says("first done")], { tools: [tool] });
    const first = s.chat("one");
    await hasStarted;
    const queued = s.stream("queued, then stopped", { mode: "followUp" });
    const steered = s.stream("steered, then stopped", { mode: "steer" });
    queued.abort();
    steered.abort();
    const dropped = await queued.result; // at once: the gate is still shut
    expect(!dropped.ok && dropped.error.code).toBe("ABORTED");
    expect(s.snapshot()).toMatchObject({ queued: 0 });
    release();
    expect((await first).ok).toBe(true);
    expect(userTexts(model.requests[1]?.body)).toEqual(["one"]);
    expect(JSON.stringify(s.export().messages)).not.toContain("stopped");
  });
});

describe("abort, close and export during a run", () => {
  it("export during a run gives the last completed turn; after abort, the partial turn marked aborted", async () => {
    const { tool, hasStarted } = gate();
    const { session: s } = await session([calls(["gate", {}]), says("never")], { tools: [tool] });
    const run = s.chat("go");
    await hasStarted;
    const during = s.export();
    expect(during.messages.map((message) => message.role)).toEqual(["user"]);
    s.abort();
    s.abort();
    const result = await run;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    const after = s.export();
    expect(after.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool_result"]);
    expect(after.messages[2]).toMatchObject({
      content: [{ output: "Tool call aborted: the run was aborted" }],
    });
    expectConsistent(after.messages);
    expect(after.turns).toBe(1);
  });

  it("after close every call fails with SESSION_CLOSED and sessionEnd has fired once", async () => {
    const ends: string[] = [];
    const { tool, hasStarted } = gate();
    const { session: s } = await session([calls(["gate", {}])], {
      tools: [tool],
      hooks: { sessionEnd: ({ stopReason }) => void ends.push(stopReason) },
    });
    const run = s.chat("go");
    await hasStarted;
    await s.close();
    await s.close();
    expect(!(await run).ok).toBe(true);
    expect(ends).toEqual(["aborted"]);
    const later = await s.chat("hello?");
    expect(!later.ok && later.error.code).toBe("SESSION_CLOSED");
    expect(s.snapshot().status).toBe("closed");
  });

  it("await using closes the session", async () => {
    const model = createScriptedModel({ script: [says("hi")] });
    let closedSession: AgentSession | undefined;
    {
      await using s = okValue(
        await createAgentSession({
          model: "anthropic/claude-sonnet-5-5",
          apiKey: "k",
          fetch: model.fetch,
        }),
      );
      closedSession = s;
      await s.chat("hi");
    }
    expect(closedSession?.snapshot().status).toBe("closed");
  });

  it("stream() streams a session run and accumulates usage over runs", async () => {
    const { session: s } = await session([says("one"), says("two")]);
    const types: string[] = [];
    for await (const event of s.stream("first")) types.push(event.type);
    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("run-end");
    await s.chat("second");
    const snapshot = s.snapshot();
    expect(snapshot).toMatchObject({ status: "idle", messageCount: 4, turns: 2 });
    expect(snapshot.usage.output).toBeGreaterThan(0);
  });
});

describe("each run's result is its own", () => {
  it("text is this run's answer, and messages do not grow with later runs", async () => {
    const { session: s } = await session([says("first answer"), says("third answer")], {
      hooks: {
        userPromptSubmit: ({ prompt }) =>
          prompt.content[0]?.type === "text" && prompt.content[0].text === "blocked"
            ? { decision: "stop" }
            : undefined,
      },
    });
    const first = await s.chat("hello");
    const stopped = await s.chat("blocked");
    expect(first.ok && first.value.text).toBe("first answer");
    expect(stopped.ok && [stopped.value.stopReason, stopped.value.text]).toEqual(["hookStop", ""]);
    await s.chat("again");
    expect(first.ok && first.value.messages).toHaveLength(2);
    expect(s.snapshot().messageCount).toBe(4);
  });

  it("breaking out of a session stream aborts that run only; a queued follow-up still runs", async () => {
    const { session: s } = await session([
      { ...says("slow words keep coming"), delayMs: 20 },
      says("follow-up ran"),
    ]);
    const streamed = s.stream("first");
    const followUp = s.chat("second", { mode: "followUp" });
    for await (const event of streamed) if (event.type === "text-delta") break;
    const [first, second] = await Promise.all([streamed.result, followUp]);
    expect(!first.ok && first.error.code).toBe("ABORTED");
    expect(second.ok && second.value.text).toBe("follow-up ran");
  });
});

describe("moving a session to another provider", () => {
  const ANTHROPIC_HISTORY: ScriptedTurn[] = [
    {
      content: [
        { type: "thinking", text: "Check the clock.", signature: "sig-1" },
        { type: "redacted_thinking", data: "secret==" },
        { type: "tool_call", name: "clock", args: {} },
      ],
    },
    { content: [{ type: "text", text: "It is noon." }] },
  ];
  const clock = defineTool({
    name: "clock",
    description: "",
    inputSchema: { type: "object" },
    execute: () => "12:00",
  });

  it("an Anthropic session continues on OpenAI-chat without Anthropic-only blocks", async () => {
    const { session: s } = await session(ANTHROPIC_HISTORY, { tools: [clock] });
    await s.chat("Time?");
    const openai = createScriptedModel({ script: [says("Still noon.")] });
    const moved = okValue(
      await createAgentSession({
        model: "openai/gpt-5.5",
        apiKey: "k",
        fetch: openai.fetch,
        tools: [clock],
        restore: JSON.parse(JSON.stringify(s.export())),
      }),
    );
    const result = await moved.chat("And now?");
    expect(result.ok).toBe(true);
    const body = openai.requests[0]?.bodyText ?? "";
    expect(body).not.toContain("sig-1");
    expect(body).not.toContain("secret==");
    expect(openai.requests[0]?.body).toMatchObject({
      messages: [
        { role: "user", content: "Time?" },
        { role: "assistant", tool_calls: [{ function: { name: "clock" } }] },
        { role: "tool", content: "12:00" },
        { role: "assistant", content: "It is noon." },
        { role: "user", content: "And now?" },
      ],
    });
    expect(moved.export()).toMatchObject({ provider: "openai-chat", model: "gpt-5.5" });
  });

  it("an OpenAI session continues on Anthropic", async () => {
    const openai = createScriptedModel({ script: [calls(["clock", {}]), says("Noon.")] });
    const s = okValue(
      await createAgentSession({
        model: "openai/gpt-5.5",
        apiKey: "k",
        fetch: openai.fetch,
        tools: [clock],
      }),
    );
    await s.chat("Time?");
    const anthropic = createScriptedModel({ script: [says("Yes.")] });
    const moved = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: anthropic.fetch,
        tools: [clock],
        restore: s.export(),
      }),
    );
    expect((await moved.chat("Sure?")).ok).toBe(true);
    const messages = (requestBody(anthropic, 0) as { messages: Array<{ role: string }> }).messages;
    expect(messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
  });
});
