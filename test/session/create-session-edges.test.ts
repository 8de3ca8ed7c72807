/**
 * The send/receive session (src/session/create-session.ts) at its edges: what `send` refuses and the
 * messages that say why, a send or resume on a closed session, `canUseTool` as a hook (its name in a
 * denial, an "ask" without a message, after a single caller hook), a result without `output`, a resume
 * that resolves once its run has started, a second concurrent `receive`, options that are not an
 * object, and `prompt`'s refused result and its closing of the session.
 */
import { describe, expect, it } from "vitest";
import { type CreateSessionOptions, createSession, type MessageSession, prompt } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, collect, echo, gate, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

function options(script: ScriptedTurn[], extra: Partial<CreateSessionOptions> = {}): CreateSessionOptions {
  const model = createScriptedModel({ script });
  return {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    tools: [echo],
    ...extra,
  };
}

/** The output text of every tool result `session` yields until its prompts have their results. */
async function toolOutputs(session: MessageSession): Promise<string[]> {
  const received = await collect(session.receive());
  return received.flatMap((message) =>
    message.type === "user" && message.message.role === "tool_result"
      ? message.message.content.map((part) => JSON.stringify(part))
      : [],
  );
}

describe("what send refuses", () => {
  it("input that is not a prompt, saying what it takes", async () => {
    await using session = okValue(await createSession(options([])));
    for (const input of [null, undefined, 42, { type: "assistant", message: "hi" }]) {
      expect(failure(await session.send(input as never))).toMatchObject({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "message",
        message: 'send() takes a string, content parts, or { type: "user", message }',
      });
    }
  });

  it("a user message without content", async () => {
    await using session = okValue(await createSession(options([])));
    for (const input of [{ type: "user" }, { type: "user", message: {} }]) {
      expect(failure(await session.send(input as never))).toMatchObject({
        code: "CONFIG_INVALID",
        path: "message",
        message: "The user message has no content",
      });
    }
  });

  it("another session's message, naming both; its own session's is sent", async () => {
    await using session = okValue(await createSession(options([says("hello")])));
    expect(
      failure(await session.send({ type: "user", message: "hi", sessionId: "other" } as never)),
    ).toMatchObject({
      path: "sessionId",
      message: `The message names session other, not ${session.sessionId}`,
    });
    okValue(await session.send({ type: "user", message: "hi", sessionId: session.sessionId } as never));
    const received = await collect(session.receive());
    expect(received.at(-1)).toMatchObject({ type: "result", subtype: "success", text: "hello" });
  });

  it("anything on a closed session: send and resume fail with SESSION_CLOSED", async () => {
    const session = okValue(await createSession(options([])));
    await session.close();
    expect(failure(await session.send("hi"))).toMatchObject({
      code: "SESSION_CLOSED",
      message: "The session is closed",
    });
    expect(failure(await session.resume([{ toolCallId: "x", approved: true }]))).toMatchObject({
      code: "SESSION_CLOSED",
      message: "The session is closed",
    });
  });
});

describe("canUseTool", () => {
  it("is named canUseTool in the denial the model reads when it throws", async () => {
    const created = options([calls(["echo", { word: "a" }]), says("ok")], {
      canUseTool: () => {
        throw new Error("policy service down");
      },
    });
    await using session = okValue(await createSession(created));
    await session.send("go");
    const [output] = await toolOutputs(session);
    expect(output).toContain('Hook \\"canUseTool\\" (preToolUse) threw: policy service down');
  });

  it("asks for approval when it answers ask without a message", async () => {
    await using session = okValue(
      await createSession(
        options([calls(["echo", { word: "a" }]), says("ok")], { canUseTool: () => ({ behavior: "ask" }) }),
      ),
    );
    await session.send("go");
    const received = await collect(session.receive());
    expect(received.at(-1)).toMatchObject({ type: "result", stopReason: "approval" });
  });

  it("runs after a single preToolUse hook the caller gave (not an array)", async () => {
    const seen: string[] = [];
    const created = options([calls(["echo", { word: "a" }]), says("ok")], {
      hooks: { preToolUse: ({ toolCall }) => void seen.push(`hook:${toolCall.name}`) },
      canUseTool: (name) => {
        seen.push(`canUseTool:${name}`);
        return { behavior: "allow" };
      },
    });
    await using session = okValue(await createSession(created));
    await session.send("go");
    await collect(session.receive());
    expect(seen).toEqual(["hook:echo", "canUseTool:echo"]);
  });
});

describe("results, resume and receive", () => {
  it("a result without structured output has no output key", async () => {
    await using session = okValue(await createSession(options([says("plain")])));
    await session.send("go");
    const result = (await collect(session.receive())).at(-1);
    expect(result).toMatchObject({ type: "result", text: "plain" });
    expect(Object.hasOwn(result as object, "output")).toBe(false);
  });

  it("resume resolves once its run has started, before the run ends", async () => {
    const { tool, hasStarted, release } = gate();
    const created = options([calls(["gate", {}]), says("done")], {
      tools: [tool],
      canUseTool: () => ({ behavior: "ask" }),
    });
    await using session = okValue(await createSession(created));
    await session.send("go");
    const paused = (await collect(session.receive())).at(-1);
    const id = paused?.type === "result" ? paused.pendingApprovals?.[0]?.toolCallId : undefined;
    // With the gate shut the run cannot end: resume must not wait for it.
    okValue(await session.resume([{ toolCallId: id as string, approved: true }]));
    await hasStarted;
    release();
    expect((await collect(session.receive())).at(-1)).toMatchObject({ type: "result", subtype: "success" });
  });

  it("a second concurrent receive is refused", async () => {
    const { tool, hasStarted, release } = gate();
    await using session = okValue(
      await createSession(options([calls(["gate", {}]), says("done")], { tools: [tool] })),
    );
    await session.send("go");
    const first = collect(session.receive());
    await hasStarted;
    await expect(collect(session.receive())).rejects.toMatchObject({
      code: "SESSION_BUSY",
      message: "receive() is already being iterated",
    });
    release();
    expect((await first).at(-1)).toMatchObject({ type: "result" });
  });

  it("options that are not an object are named as the session's options", async () => {
    expect(failure(await createSession(null as never))).toMatchObject({
      message: "The session's options must be an object of options, got null",
    });
  });
});

describe("prompt", () => {
  it("a refused message or options give an error result with empty promptUuid, text and (unnamed) sessionId", async () => {
    const refusedMessage = await prompt(42 as never, options([]));
    expect(refusedMessage).toMatchObject({ subtype: "error", promptUuid: "", text: "" });
    const refusedOptions = await prompt("hi", { ...options([]), temperature: "hot" } as never);
    expect(refusedOptions).toMatchObject({ subtype: "error", sessionId: "", promptUuid: "", text: "" });
  });

  it("closes its session: sessionEnd fires once", async () => {
    const ended: string[] = [];
    const result = await prompt(
      "hi",
      options([says("bye")], { hooks: { sessionEnd: () => void ended.push("end") } }),
    );
    expect(result).toMatchObject({ subtype: "success", text: "bye" });
    expect(ended).toEqual(["end"]);
  });
});
