/**
 * What a hook may return, checked field by field: each malformed decision is a HookError
 * `HOOK_INVALID_DECISION` naming what is wrong (a preToolUse hook's denies the call with it), while
 * `null` is nothing; and how a hook is named when `bind` or its own name says "bound".
 */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/agent-events.ts";
import { runHooks } from "../../src/agent/run-hooks.ts";
import { defineTool, type Hooks, runAgentStream } from "../../src/index.ts";
import { calls, collect, says, scripted } from "../support/agent.ts";

const echo = defineTool({
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object", properties: { word: { type: "string" } } },
  execute: (args) => `echo:${String(args.word)}`,
});

/** Runs one call of `echo` under `hooks`: the call's result output, and the hook errors and decisions. */
async function runEcho(hooks: Hooks) {
  const { options } = scripted([calls(["echo", { word: "x" }]), says("ok")]);
  const run = runAgentStream(options({ tools: [echo], hooks }));
  const events = await collect(run);
  const result = await run.result;
  if (!result.ok) throw result.error;
  return {
    output: result.value.toolCalls[0]?.result.output,
    errors: events.flatMap((event) => (event.type === "hook-error" ? [event] : [])),
    decisions: events.flatMap((event) => (event.type === "hook-decision" ? [event] : [])),
  };
}

/** What a preToolUse hook returning `value` does to the call: the denial's text, or the tool's output. */
async function preToolUseAnswering(value: unknown) {
  return runEcho({ preToolUse: { name: "check", handler: () => value as never } });
}

describe("a preToolUse hook's answer", () => {
  it.each([
    ["a string", "allow", "expected an object or nothing, got string"],
    ["an array", [], "expected an object or nothing, got object"],
    [
      "an unknown field",
      { decision: "allow", output: "x" },
      '"output" is not a field of a preToolUse decision',
    ],
    ["deny without a reason", { decision: "deny" }, 'decision "deny" needs a reason'],
    ["deny with an empty reason", { decision: "deny", reason: "" }, 'decision "deny" needs a reason'],
    ["deny with a reason not a string", { decision: "deny", reason: 7 }, 'decision "deny" needs a reason'],
    ["a reason not a string", { decision: "allow", reason: 7 }, "reason must be a string"],
    ["context not a string", { context: ["a"] }, "context must be a string"],
    ["input null", { input: null }, "input must be an object"],
    ["input an array", { input: ["x"] }, "input must be an object"],
    ["input a string", { input: "x" }, "input must be an object"],
  ])("%s is an invalid decision that denies the call", async (_, value, problem) => {
    const { output, errors } = await preToolUseAnswering(value);
    expect(output).toBe(`Denied: Hook "check" (preToolUse) ${problem}`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ event: "preToolUse", hook: "check", policy: "closed" });
    expect(errors[0]?.error).toMatchObject({
      _tag: "HookError",
      code: "HOOK_INVALID_DECISION",
      message: `Hook "check" (preToolUse) ${problem}`,
      details: { hook: "check", event: "preToolUse" },
    });
  });

  it.each([null, undefined, {}])("%s is no decision: the call runs, nothing is reported", async (value) => {
    const { output, errors, decisions } = await preToolUseAnswering(value);
    expect(output).toBe("echo:x");
    expect(errors).toEqual([]);
    expect(decisions).toEqual([]);
  });
});

describe("other events' answers", () => {
  it("a postToolUse output that is not a string is reported, and the tool's own output stays", async () => {
    const { output, errors } = await runEcho({
      postToolUse: { name: "post", handler: () => ({ output: 7 }) as never },
    });
    expect(output).toBe("echo:x");
    expect(errors[0]).toMatchObject({ event: "postToolUse", hook: "post", policy: "open" });
    expect(errors[0]?.error).toMatchObject({
      code: "HOOK_INVALID_DECISION",
      message: 'Hook "post" (postToolUse) output must be a string',
    });
  });

  it.each([
    [{ decision: "block" }, 'decision "block" needs a reason'],
    [{ decision: "block", reason: "" }, 'decision "block" needs a reason'],
  ])("a stop hook's %j is reported, and the run ends as it would", async (value, problem) => {
    const { options } = scripted([says("done"), says("never")]);
    const run = runAgentStream(
      options({ hooks: { stop: { name: "judge", handler: () => value as never } } }),
    );
    const events = await collect(run);
    const result = await run.result;
    expect(result.ok && [result.value.stopReason, result.value.turns]).toEqual(["complete", 1]);
    const errors = events.flatMap((event) => (event.type === "hook-error" ? [event] : []));
    expect(errors.map((event) => [event.policy, event.error.code, event.error.message])).toEqual([
      ["open", "HOOK_INVALID_DECISION", `Hook "judge" (stop) ${problem}`],
    ]);
  });

  it.each([
    [{ summary: "" }, "summary must be a non-empty string"],
    [{ summary: "  \n" }, "summary must be a non-empty string"],
    [{ summary: 3 }, "summary must be a non-empty string"],
  ])("a preCompact answer %j is an invalid decision", async (value, problem) => {
    const emitted: AgentEvent[] = [];
    const outcome = await runHooks("preCompact", {} as never, {
      hooks: { preCompact: { name: "mine", handler: () => value as never, onFailure: "closed" } },
      signal: new AbortController().signal,
      emit: (event) => emitted.push(event),
    });
    expect(outcome).toMatchObject({
      kind: "failed",
      error: { code: "HOOK_INVALID_DECISION", message: `Hook "mine" (preCompact) ${problem}` },
    });
    expect(emitted).toMatchObject([{ type: "hook-error", event: "preCompact", hook: "mine" }]);
  });

  it("a sessionEnd hook takes no decision: any field is refused by name", async () => {
    const outcome = await runHooks("sessionEnd", {} as never, {
      hooks: {
        sessionEnd: { name: "bye", handler: () => ({ decision: "stop" }) as never, onFailure: "closed" },
      },
      signal: new AbortController().signal,
      emit: () => {},
    });
    expect(outcome).toMatchObject({
      kind: "failed",
      error: { message: 'Hook "bye" (sessionEnd) "decision" is not a field of a sessionEnd decision' },
    });
  });

  it("a preCompact summary with text around spaces is taken", async () => {
    const outcome = await runHooks("preCompact", {} as never, {
      hooks: { preCompact: () => ({ summary: " kept " }) },
      signal: new AbortController().signal,
      emit: () => {},
    });
    expect(outcome).toEqual({ kind: "go", context: [], summary: " kept " });
  });
});

describe("hook names", () => {
  it("drops every leading bound, and only leading ones", async () => {
    function audit() {
      return { decision: "allow" as const };
    }
    const named = { "check bound input": () => ({ decision: "allow" as const }) };
    const { decisions } = await runEcho({
      preToolUse: [audit.bind(null).bind(null), named["check bound input"]],
    });
    expect(decisions.map((event) => event.hook)).toEqual(["audit", "check bound input"]);
  });
});
