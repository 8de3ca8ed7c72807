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
      details: { hook: "onEvent", event: "tool-start" },
      cause: bug,
    });
    expect(!result.ok && result.error.message).toBe("onEvent threw: dashboard down");
    expect(model.requests).toHaveLength(1);
    if (!result.ok) expectConsistent(result.partial.messages);
  });

  it("a throw on run-end still fails the Result, keeping the finished run as its partial", async () => {
    const { options } = scripted([says("done")]);
    const result = await runAgent({
      ...options(),
      onEvent: (event) => {
        if (event.type === "run-end") throw new Error("late");
      },
    });
    expect(!result.ok && [result.error.code, result.partial.text]).toEqual(["HOOK_FAILED", "done"]);
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
