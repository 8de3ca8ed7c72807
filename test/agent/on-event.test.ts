/**
 * `runAgent({ onEvent })`: a one-shot run observed event by event, the same events `runAgentStream`
 * yields; an observer that throws ends the run with a HookError, the partial run kept.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { type AgentEvent, defineTool, runAgent, runAgentStream } from "../../src/index.ts";
import { calls, expectConsistent, says, scripted } from "../support/agent.ts";

const weather = defineTool({
  name: "weather",
  description: "Weather in a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

describe("runAgent's onEvent", () => {
  it("sees every event of the run, the same ones runAgentStream yields, ending with run-end", async () => {
    const seen: AgentEvent[] = [];
    const { options } = scripted([calls(["weather", { city: "Oslo" }]), says("Sunny.")]);
    const result = await runAgent({ ...options({ tools: [weather] }), onEvent: (event) => seen.push(event) });
    expect(result.ok).toBe(true);
    const streamed: AgentEvent[] = [];
    const { options: again } = scripted([calls(["weather", { city: "Oslo" }]), says("Sunny.")]);
    for await (const event of runAgentStream({ ...again({ tools: [weather] }) })) streamed.push(event);
    expect(seen.map((event) => event.type)).toEqual(streamed.map((event) => event.type));
    expect(seen.at(-1)).toMatchObject({ type: "run-end", result: { ok: true } });
    expect(seen.some((event) => event.type === "tool-start")).toBe(true);
  });

  it("is typed by the run's tools", () => {
    void runAgent({
      model: "anthropic/claude-sonnet-5-5",
      prompt: "x",
      tools: [weather],
      onEvent: (event) => {
        if (event.type === "tool-start" && event.toolCall.name === "weather")
          expectTypeOf(event.toolCall.args).toEqualTypeOf<{ city: string }>();
      },
    }).catch(() => {});
  });

  it("a throw from it aborts the run: a HookError naming onEvent, the cause kept, the partial run consistent", async () => {
    const { model, options } = scripted([calls(["weather", { city: "Oslo" }]), says("never")]);
    const bug = new Error("dashboard down");
    const result = await runAgent({
      ...options({ tools: [weather] }),
      onEvent: (event) => {
        if (event.type === "tool-start") throw bug;
      },
    });
    expect(!result.ok && result.error).toMatchObject({
      _tag: "HookError",
      code: "HOOK_FAILED",
      details: { hook: "onEvent" },
      cause: bug,
    });
    expect(!result.ok && result.error.message).toBe("onEvent threw: dashboard down");
    expect(model.requests).toHaveLength(1);
    if (!result.ok) expectConsistent(result.partial.messages);
  });

  it("a throw on run-end changes nothing: the run has ended, and its Result stands", async () => {
    const { options } = scripted([says("done")]);
    const result = await runAgent({
      ...options(),
      onEvent: (event) => {
        if (event.type === "run-end") throw new Error("late");
      },
    });
    expect(result.ok && result.value.text).toBe("done");
  });

  it("the stream's run-end carries the same HookError as the Result", async () => {
    const { options } = scripted([calls(["weather", { city: "Oslo" }]), says("never")]);
    const run = runAgentStream({
      ...options({ tools: [weather] }),
      onEvent: (event) => {
        if (event.type === "tool-start") throw new Error("observer down");
      },
    });
    let last: AgentEvent | undefined;
    for await (const event of run) last = event;
    const result = await run.result;
    expect(last?.type === "run-end" && last.result).toBe(result);
    expect(!result.ok && result.error.code).toBe("HOOK_FAILED");
  });

  it("an async observer that rejects fails the run the same way, and never goes unhandled", async () => {
    const { options } = scripted([calls(["weather", { city: "Oslo" }]), says("never")]);
    const result = await runAgent({
      ...options({ tools: [weather] }),
      onEvent: async (event) => {
        if (event.type === "tool-call") throw new Error("async observer down");
      },
    });
    expect(!result.ok && [result.error.code, result.error.message]).toEqual([
      "HOOK_FAILED",
      "onEvent threw: async observer down",
    ]);
  });

  it("a run refused for its options still tells the observer its run-end", async () => {
    const seen: string[] = [];
    const { options } = scripted([says("never")]);
    const result = await runAgent({ ...options(), maxTurns: 0, onEvent: (event) => seen.push(event.type) });
    expect(!result.ok && result.error.code).toBe("CONFIG_INVALID");
    expect(seen).toEqual(["run-end"]);
  });

  it("runAgentStream tells it too, and a non-function is a ConfigError", async () => {
    const types: string[] = [];
    const { options } = scripted([says("hi")]);
    const run = runAgentStream({ ...options(), onEvent: (event) => types.push(event.type) });
    const yielded: string[] = [];
    for await (const event of run) yielded.push(event.type);
    expect(types).toEqual(yielded);
    const bad = await runAgent({ ...options(), onEvent: "log" as never });
    expect(!bad.ok && bad.error).toMatchObject({ _tag: "ConfigError", path: "onEvent" });
  });
});
