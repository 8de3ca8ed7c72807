/**
 * Anything thrown becomes a typed error with the call answered: tools and hooks that throw values
 * `String()` cannot convert (a null-prototype object, a throwing `toString`, a revoked Proxy, a
 * Symbol, an Error whose `message` getter throws). The run goes on, hooks keep their failure policy,
 * and the session exports and restores.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgentSession, defineTool, type Hooks, runAgent } from "../../src/index.ts";
import { calls, expectConsistent, says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function errorWithThrowingMessage(): Error {
  const error = new Error("hidden");
  Object.defineProperty(error, "message", {
    get() {
      throw new Error("no message for you");
    },
  });
  return error;
}

const ODD_VALUES: Array<[string, () => unknown]> = [
  ["a null-prototype object", () => Object.create(null)],
  [
    "a value whose toString throws",
    () => ({
      toString() {
        throw new Error("nope");
      },
    }),
  ],
  ["a revoked Proxy", revokedProxy],
  ["a Symbol", () => Symbol("odd")],
  ["an Error whose message getter throws", errorWithThrowingMessage],
];

function throwingTool(value: () => unknown) {
  return defineTool({
    name: "odd",
    description: "Throws something odd",
    input: z.object({}),
    execute: () => {
      throw value();
    },
  });
}

const echo = defineTool({
  name: "echo",
  description: "Echoes",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe.each(ODD_VALUES)("%s", (_name, value) => {
  it("thrown by a tool is a failed tool result; the run completes and the session restores", async () => {
    const { options } = scripted([calls(["odd", {}]), says("done")]);
    const { prompt: _, ...sessionOptions } = options();
    const session = okValue(await createAgentSession({ ...sessionOptions, tools: [throwingTool(value)] }));
    const result = await session.chat("go");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.stopReason).toBe("complete");
    expectConsistent(result.value.messages);
    const toolResult = result.value.messages.find((message) => message.role === "tool_result");
    expect(toolResult?.content[0]).toMatchObject({ isError: true });
    expect(JSON.stringify(toolResult)).toMatch(/Tool \\"odd\\" failed: /);
    const saved = JSON.parse(JSON.stringify(session.export()));
    const restored = okValue(
      await createAgentSession({
        ...sessionOptions,
        tools: [throwingTool(value)],
        restore: saved,
      }),
    );
    expect(restored.export().messages).toEqual(saved.messages);
  });

  it("thrown by a preToolUse hook denies the call (fail closed) and the run goes on", async () => {
    const { options } = scripted([calls(["echo", { text: "a" }]), says("done")]);
    const hooks: Hooks = {
      preToolUse: () => {
        throw value();
      },
    };
    const result = await runAgent(options({ tools: [echo], hooks }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expectConsistent(result.value.messages);
    const toolResult = result.value.messages.find((message) => message.role === "tool_result");
    expect(toolResult?.content[0]).toMatchObject({ isError: true });
    expect(JSON.stringify(toolResult)).not.toContain("echo: a");
  });

  it("thrown by a postToolUse hook lets the result through (fail open)", async () => {
    const { options } = scripted([calls(["echo", { text: "a" }]), says("done")]);
    const hooks: Hooks = {
      postToolUse: () => {
        throw value();
      },
    };
    const result = await runAgent(options({ tools: [echo], hooks }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const toolResult = result.value.messages.find((message) => message.role === "tool_result");
    expect(toolResult?.content[0]).toMatchObject({ output: "echo: a", isError: false });
  });

  it("returned as a hook's decision is a hook failure, not a crash", async () => {
    const { options } = scripted([calls(["echo", { text: "a" }]), says("done")]);
    const hooks = { preToolUse: () => ({ decision: value() }) } as unknown as Hooks;
    const result = await runAgent(options({ tools: [echo], hooks }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expectConsistent(result.value.messages);
    const toolResult = result.value.messages.find((message) => message.role === "tool_result");
    expect(toolResult?.content[0]).toMatchObject({ isError: true });
  });
});
