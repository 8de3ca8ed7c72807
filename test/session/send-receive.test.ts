/**
 * The send/receive API: the order of what `receive` yields, whole messages with their parents, one
 * result per prompt (success and error), queued prompts, the permission callback, close, and `prompt`.
 */
import { describe, expect, it } from "vitest";
import { type CreateSessionOptions, createSession, type Message, prompt } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, collect, echo, expectConsistent, gate, requestBody, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

function options(script: ScriptedTurn[], extra: Partial<CreateSessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const created: CreateSessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    tools: [echo],
    ...extra,
  };
  return { model, options: created };
}

describe("createSession", () => {
  it("yields init, whole messages with their parents, then the result", async () => {
    const { options: o } = options([calls(["echo", { word: "hi" }]), says("done")]);
    await using session = okValue(await createSession(o));
    await session.send("go");
    const received = await collect(session.receive());
    expect(received.map((m) => m.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    const [init, call, results, answer, result] = received;
    expect(answer?.type === "assistant" && answer.message.content).toEqual([{ type: "text", text: "done" }]);
    expect(init).toMatchObject({
      subtype: "init",
      sessionId: session.sessionId,
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      tools: ["echo"],
    });
    expect(call?.type === "assistant" && call.message.content[0]).toMatchObject({
      type: "tool_call",
      name: "echo",
    });
    expect(results?.type === "user" && results.message.role).toBe("tool_result");
    // Each message names the one before it; the first answers the (unechoed) prompt.
    const chain = received.filter((m) => m.type === "assistant" || m.type === "user");
    const conversation = session.export().messages;
    expect(chain.map((m) => m.uuid)).toEqual(conversation.slice(1).map((m) => m.id));
    expect(chain.map((m) => m.parentUuid)).toEqual(conversation.slice(0, -1).map((m) => m.id));
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      isError: false,
      promptUuid: conversation[0]?.id,
      text: "done",
      stopReason: "complete",
      turns: 2,
    });
    expect(result?.type === "result" && result.usage.output).toBeGreaterThan(0);
    expect(result?.type === "result" && result.costUsd).toBeGreaterThan(0);
  });

  it("takes a user message with its uuid, and gives one result per prompt, in order", async () => {
    const { model, options: o } = options([says("one"), says("two")]);
    await using session = okValue(await createSession(o));
    await session.send({ type: "user", message: { role: "user", content: "first" }, uuid: "u-1" });
    await session.send({ type: "user", message: [{ type: "text", text: "second" }], uuid: "u-2" });
    const received = await collect(session.receive());
    const results = received.filter((m) => m.type === "result");
    expect(results.map((r) => [r.promptUuid, r.text])).toEqual([
      ["u-1", "one"],
      ["u-2", "two"],
    ]);
    expect(received.filter((m) => m.type === "system")).toHaveLength(1);
    // The second prompt waited for the first run: its request holds the whole first exchange.
    expect((requestBody(model).messages as unknown[]).length).toBe(3);
    expect(session.export().messages.map((m) => m.id)).toContain("u-2");
  });

  it("receive ends when every prompt has its result, and picks up again after the next send", async () => {
    const { options: o } = options([says("a"), says("b")]);
    await using session = okValue(await createSession(o));
    expect(await collect(session.receive())).toEqual([]);
    await session.send("1");
    expect((await collect(session.receive())).at(-1)).toMatchObject({ type: "result", text: "a" });
    await session.send("2");
    const second = await collect(session.receive());
    expect(second.map((m) => m.type)).toEqual(["assistant", "result"]);
    // The parent of the second answer is the second prompt, which follows the first answer.
    const conversation: Message[] = session.export().messages;
    expect(second[0]).toMatchObject({ parentUuid: conversation[2]?.id });
  });

  it("a failed run gives an error result carrying the typed error", async () => {
    const { options: o } = options([{ fault: { type: "http", status: 529 } }]);
    await using session = okValue(await createSession(o));
    await session.send("go");
    const result = (await collect(session.receive())).at(-1);
    expect(result).toMatchObject({ type: "result", subtype: "error", isError: true, stopReason: "error" });
    expect(result?.type === "result" && result.error).toMatchObject({
      _tag: "ProviderError",
      code: "OVERLOADED",
    });
  });

  it("abort ends the run and the queued prompt with error results; the session stays usable", async () => {
    const { tool: slow, hasStarted, release } = gate();
    const { options: o } = options([calls(["gate", {}]), says("after")], { tools: [slow] });
    await using session = okValue(await createSession(o));
    await session.send("first");
    await session.send("queued");
    await hasStarted;
    session.abort();
    release();
    const results = (await collect(session.receive())).filter((m) => m.type === "result");
    expect(results.map((r) => r.error?.code)).toEqual(["ABORTED", "ABORTED"]);
    expectConsistent(session.export().messages);
    await session.send("again");
    expect((await collect(session.receive())).at(-1)).toMatchObject({ subtype: "success", text: "after" });
  });

  it("refuses input of the wrong shape, another session's id, and sends after close, as failed Results", async () => {
    const { options: o } = options([says("x")]);
    const session = okValue(await createSession(o));
    expect(failure(await session.send({ type: "assistant" } as never))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "message",
    });
    expect(failure(await session.send({ type: "user", message: "hi", sessionId: "other" }))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "sessionId",
    });
    await session.close();
    expect(failure(await session.send("hi"))).toMatchObject({ code: "SESSION_CLOSED" });
  });

  it("an empty prompt gets an error result, not a request", async () => {
    const { model, options: o } = options([says("x")]);
    await using session = okValue(await createSession(o));
    await session.send("");
    const result = (await collect(session.receive())).at(-1);
    expect(result).toMatchObject({ subtype: "error", error: { code: "CONFIG_INVALID" } });
    expect(model.requests).toHaveLength(0);
  });

  it("one receive at a time", async () => {
    const { options: o } = options([says("x")]);
    await using session = okValue(await createSession(o));
    await session.send("go");
    const first = session.receive();
    await first.next();
    await expect(session.receive().next()).rejects.toMatchObject({ code: "SESSION_BUSY" });
    await first.return();
  });

  it("restores from an export and continues the same conversation", async () => {
    const { options: o } = options([says("first")]);
    const original = okValue(await createSession(o));
    await original.send("hello");
    await collect(original.receive());
    const state = JSON.parse(JSON.stringify(original.export()));
    await original.close();
    const { model, options: again } = options([says("second")]);
    const { model: _, ...withoutModel } = again;
    await using restored = okValue(await createSession({ ...withoutModel, restore: state }));
    expect(restored.sessionId).toBe(state.sessionId);
    await restored.send("more");
    const received = await collect(restored.receive());
    expect(received.at(-1)).toMatchObject({ text: "second" });
    expect((requestBody(model).messages as unknown[]).length).toBe(3);
  });
});

describe("canUseTool", () => {
  it("without it every tool call runs", async () => {
    const { options: o } = options([calls(["echo", { word: "a" }]), says("ok")]);
    await using session = okValue(await createSession(o));
    await session.send("go");
    const results = (await collect(session.receive())).find((m) => m.type === "user");
    expect(results?.type === "user" && results.message.content[0]).toMatchObject({ output: "echo:a" });
  });

  it("allows with changed input, denies with a message, and can end the run", async () => {
    const seen: Array<[string, unknown]> = [];
    const { options: o } = options(
      [
        calls(["echo", { word: "a" }], ["echo", { word: "b" }]),
        calls(["echo", { word: "stop" }]),
        says("never"),
      ],
      {
        canUseTool: (name, input, { toolCallId, signal }) => {
          expect(signal).toBeInstanceOf(AbortSignal);
          expect(toolCallId).toMatch(/\S/);
          seen.push([name, input]);
          if (input.word === "a") return { behavior: "allow", updatedInput: { word: "A" } };
          if (input.word === "b") return { behavior: "deny", message: "not b" };
          return { behavior: "deny", message: "enough", interrupt: true };
        },
      },
    );
    await using session = okValue(await createSession(o));
    await session.send("go");
    const received = await collect(session.receive());
    expect(seen.map(([, input]) => input)).toEqual([{ word: "a" }, { word: "b" }, { word: "stop" }]);
    const firstResults = received.find((m) => m.type === "user");
    const parts = firstResults?.type === "user" ? firstResults.message.content : [];
    expect(parts.map((part) => ("output" in part ? part.output : undefined))).toEqual(["echo:A", "not b"]);
    expect(received.at(-1)).toMatchObject({
      subtype: "success",
      stopReason: "hookStop",
      stopDetail: "enough",
    });
    expectConsistent(session.export().messages);
  });

  it("a permission callback that throws denies the call", async () => {
    const { options: o } = options([calls(["echo", { word: "a" }]), says("ok")], {
      canUseTool: () => {
        throw new Error("broken policy");
      },
    });
    await using session = okValue(await createSession(o));
    await session.send("go");
    const results = (await collect(session.receive())).find((m) => m.type === "user");
    const part = results?.type === "user" ? results.message.content[0] : undefined;
    expect(part).toMatchObject({ isError: true });
    expect(part && "output" in part && part.output).not.toContain("echo:");
  });
});

describe("prompt", () => {
  it("is one prompt and its result", async () => {
    const { options: o } = options([calls(["echo", { word: "x" }]), says("answer")]);
    const result = await prompt("go", o);
    expect(result).toMatchObject({ type: "result", subtype: "success", text: "answer", turns: 2 });
  });

  it("a failed run is an error result, not a throw", async () => {
    const { options: o } = options([{ fault: { type: "http", status: 401 } }]);
    const result = await prompt("go", o);
    expect(result).toMatchObject({ subtype: "error", error: { code: "AUTH" } });
  });

  it("invalid options are an error result with the ConfigError, nothing sent", async () => {
    expect(await prompt("go", { apiKey: "k" })).toMatchObject({
      subtype: "error",
      isError: true,
      turns: 0,
      error: { code: "CONFIG_INVALID", path: "model" },
    });
  });
});
