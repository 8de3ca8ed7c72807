/**
 * runAgent and runAgentStream in corners on-event.test.ts and abort.test.ts leave out: options that
 * are not an object, earlier `messages` carried into the run, an observer that throws more than once
 * (the first throw is the error), throws while the run fails on its own (its own error stands) or
 * after it ended (nothing is aborted), and the abort reasons a stream gives its run.
 */
import { describe, expect, it } from "vitest";
import { defineTool, type Message, runAgent, runAgentStream, type ToolContext } from "../../src/index.ts";
import { calls, echo, says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

describe("options", () => {
  it("refuses options that are not an object, naming runAgent's options and what it got", async () => {
    const error = failure(await runAgent(null as never));
    expect(error).toMatchObject({
      code: "CONFIG_INVALID",
      message: "runAgent's options must be an object of options, got null",
    });
  });

  it("sends the earlier messages given, then the prompt, and keeps them in the result", async () => {
    const first = scripted([says("Hello Ada.")]);
    const earlier: Message[] = okValue(await runAgent(first.options({ prompt: "My name is Ada." }))).messages;
    const { model, options } = scripted([says("You are Ada.")]);
    const value = okValue(await runAgent(options({ messages: earlier, prompt: "Who am I?" })));
    const body = model.requests[0]?.body as { messages: Array<{ role: string }> };
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(body.messages)).toContain("My name is Ada.");
    expect(value.messages.slice(0, 2)).toEqual(earlier);
    expect(value.messages).toHaveLength(4);
  });
});

describe("an observer that throws", () => {
  it("more than once: the run fails with the first throw", async () => {
    const { options } = scripted([calls(["echo", { word: "a" }]), says("done")]);
    const thrown: string[] = [];
    const result = await runAgent({
      ...options({ tools: [echo] }),
      onEvent: (event) => {
        if (event.type !== "tool-start" && thrown.length === 0) return;
        thrown.push(event.type);
        throw new Error(`down at ${event.type}`);
      },
    });
    // The aborted call's result came after the first throw, and threw too.
    expect(thrown.slice(0, 2)).toEqual(["tool-start", "tool-result"]);
    expect(failure(result)).toMatchObject({
      code: "HOOK_FAILED",
      message: "onEvent threw: down at tool-start",
    });
  });

  it("while the run fails on its own: the run's own error stands", async () => {
    const { options } = scripted([{ content: [], fault: { type: "http", status: 401 } }]);
    const result = await runAgent({
      ...options(),
      onEvent: (event) => {
        if (event.type === "error") throw new Error("observer down");
      },
    });
    expect(failure(result).code).toBe("AUTH");
  });

  it("after the run ended: nothing is aborted and the result stands", async () => {
    let signal: AbortSignal | undefined;
    const keep = defineTool({
      name: "keep",
      description: "Keeps the run's signal",
      inputSchema: { type: "object" },
      // The approval check is handed the run's own signal.
      needsApproval: (_args, context: ToolContext) => {
        signal = context.signal;
        return false;
      },
      execute: () => "kept",
    });
    const { options } = scripted([calls(["keep", {}]), says("done")]);
    const result = await runAgent({
      ...options({ tools: [keep] }),
      onEvent: (event) => {
        if (event.type === "run-end") throw new Error("too late");
      },
    });
    expect(okValue(result).text).toBe("done");
    expect(signal?.aborted).toBe(false);
  });
});

describe("a stream's abort reasons", () => {
  it("a consumer that stops reading aborts the run with an AbortError saying so", async () => {
    const { options } = scripted([says("a b c d e f g h")]);
    const run = runAgentStream(options());
    for await (const event of run) if (event.type === "text-delta") break;
    const error = failure(await run.result);
    expect(error.code).toBe("ABORTED");
    expect(error.cause).toMatchObject({
      name: "AbortError",
      message: "The consumer stopped reading the run",
    });
  });

  it("abort() without a reason gives an AbortError; with one, that reason", async () => {
    const bare = runAgentStream(scripted([says("a b c d e f g h")]).options());
    for await (const event of bare) if (event.type === "text-delta") bare.abort();
    expect(failure(await bare.result).cause).toMatchObject({
      name: "AbortError",
      message: "The run was aborted",
    });
    const reasoned = runAgentStream(scripted([says("a b c d e f g h")]).options());
    for await (const event of reasoned) if (event.type === "text-delta") reasoned.abort("user left");
    expect(failure(await reasoned.result).cause).toBe("user left");
  });
});
