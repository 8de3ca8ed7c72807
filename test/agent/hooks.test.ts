/**
 * Hooks: every decision, the timeout and failure policies, abort during a pending decision, and the
 * bound on stop-blocking. What a hook changes is read back from the wire request the model got.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type Hooks, runAgent, runAgentStream } from "../../src/index.ts";
import { calls, collect, expectConsistent, requestBody, says, scripted } from "../support/agent.ts";

const echo = defineTool({
  name: "echo",
  description: "Echoes",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

/** The Anthropic content blocks of the last user message of a request. */
function lastUserBlocks(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const messages = body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
  return messages.filter((message) => message.role === "user").at(-1)?.content ?? [];
}

describe("preToolUse", () => {
  it("allow runs the tool; deny sends the reason as the tool's error result", async () => {
    const { model, options } = scripted([
      calls(["echo", { text: "a" }], ["echo", { text: "secret" }]),
      says("ok"),
    ]);
    const hooks: Hooks = {
      preToolUse: ({ toolCall }) =>
        toolCall.args.text === "secret"
          ? { decision: "deny", reason: "Secrets stay put" }
          : { decision: "allow", context: "Approved by policy." },
    };
    const result = await runAgent(options({ tools: [echo], hooks }));
    expect(result.ok).toBe(true);
    expect(lastUserBlocks(requestBody(model))).toEqual([
      expect.objectContaining({
        type: "tool_result",
        content: "echo: a\n\nApproved by policy.",
        is_error: false,
      }),
      expect.objectContaining({ type: "tool_result", content: "Secrets stay put", is_error: true }),
    ]);
  });

  it("modified input is what the next hook sees and what the tool runs with", async () => {
    const { options } = scripted([calls(["echo", { text: "raw" }]), says("ok")]);
    const seenBySecond: unknown[] = [];
    const hooks: Hooks = {
      preToolUse: [
        () => ({ input: { text: "cleaned" } }),
        ({ toolCall }) => {
          seenBySecond.push(toolCall.args);
        },
      ],
    };
    const result = await runAgent(options({ tools: [echo], hooks }));
    expect(seenBySecond).toEqual([{ text: "cleaned" }]);
    expect(result.ok && result.value.toolCalls[0]?.result.output).toBe("echo: cleaned");
    expect(result.ok && result.value.toolCalls[0]?.toolCall.args).toEqual({ text: "cleaned" });
  });

  it("modified input is validated like the model's", async () => {
    const { options } = scripted([calls(["echo", { text: "raw" }]), says("ok")]);
    const result = await runAgent(
      options({ tools: [echo], hooks: { preToolUse: () => ({ input: { text: 7 } }) } }),
    );
    expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^Invalid arguments for "echo": text:/),
    });
  });

  it("a hook that throws denies the call by default (fail closed) and says so", async () => {
    let ran = false;
    const guarded = defineTool({
      name: "guarded",
      description: "",
      inputSchema: { type: "object" },
      execute: () => {
        ran = true;
        return "ran";
      },
    });
    const { options } = scripted([calls(["guarded", {}]), says("ok")]);
    const run = runAgentStream(
      options({
        tools: [guarded],
        hooks: {
          preToolUse: {
            name: "policy",
            handler: () => {
              throw new Error("policy server down");
            },
          },
        },
      }),
    );
    const events = await collect(run);
    const result = await run.result;
    expect(ran).toBe(false);
    expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: 'Denied: Hook "policy" (preToolUse) threw: policy server down',
    });
    const hookError = events.find((event) => event.type === "hook-error");
    expect(hookError).toMatchObject({ event: "preToolUse", hook: "policy", policy: "closed" });
    expect(hookError?.type === "hook-error" && hookError.error).toMatchObject({
      _tag: "HookError",
      code: "HOOK_FAILED",
      details: { hook: "policy", event: "preToolUse" },
    });
  });

  it("with onFailure open, a failing hook lets the call run", async () => {
    const { options } = scripted([calls(["echo", { text: "x" }]), says("ok")]);
    const result = await runAgent(
      options({
        tools: [echo],
        hooks: { preToolUse: { handler: () => Promise.reject(new Error("flaky")), onFailure: "open" } },
      }),
    );
    expect(result.ok && result.value.toolCalls[0]?.result.output).toBe("echo: x");
  });

  it("a hook past its timeout gets its signal aborted and the fallback applies", async () => {
    let hookSignal: AbortSignal | undefined;
    const { options } = scripted([calls(["echo", { text: "x" }]), says("ok")]);
    const run = runAgentStream(
      options({
        tools: [echo],
        hooks: {
          preToolUse: {
            name: "slow",
            timeoutMs: 30,
            handler: ({ signal }) => {
              hookSignal = signal;
              return new Promise(() => {});
            },
          },
        },
      }),
    );
    const events = await collect(run);
    const result = await run.result;
    expect(hookSignal?.aborted).toBe(true);
    expect(result.ok && result.value.toolCalls[0]?.result.output).toBe(
      'Denied: Hook "slow" (preToolUse) timed out after 30 ms',
    );
    expect(events.find((event) => event.type === "hook-error")).toMatchObject({
      error: { code: "HOOK_TIMEOUT" },
    });
  });

  it("an answer that is not a decision is a HookError, not a silent allow", async () => {
    const { options } = scripted([calls(["echo", { text: "x" }]), says("ok")]);
    const result = await runAgent(
      options({ tools: [echo], hooks: { preToolUse: () => ({ decision: "maybe" }) as never } }),
    );
    expect(result.ok && result.value.toolCalls[0]?.result.output).toMatch(
      /^Denied: Hook "preToolUse#1" \(preToolUse\) decision "maybe" is not one of: allow, deny, ask, stop/,
    );
  });

  it("a hook is named by its name, its function's own name, or its event and position", async () => {
    const { options } = scripted([calls(["echo", { text: "x" }]), says("ok")]);
    const allow = () => ({ decision: "allow" as const });
    function audit() {
      return { decision: "allow" as const };
    }
    const run = runAgentStream(
      options({
        tools: [echo],
        hooks: {
          preToolUse: [
            { name: "policy", handler: allow },
            audit,
            { handler: () => ({ decision: "allow" }), timeoutMs: 1000 },
            () => ({ decision: "allow" }),
            allow,
            audit.bind(null),
            { handler: (() => ({ decision: "allow" as const })).bind(null) },
          ],
        },
      }),
    );
    const events = await collect(run);
    const names = events.flatMap((event) => (event.type === "hook-decision" ? [event.hook] : []));
    // `handler` and `preToolUse` are names JavaScript inferred for anonymous functions: not used.
    expect(names).toEqual([
      "policy",
      "audit",
      "preToolUse#3",
      "preToolUse#4",
      "allow",
      "audit",
      "preToolUse#7",
    ]);
  });

  it("stop ends the run with stopReason hookStop, the call answered as not run", async () => {
    const { model, options } = scripted([calls(["echo", { text: "x" }]), says("never")]);
    const result = await runAgent(
      options({
        tools: [echo],
        hooks: { preToolUse: () => ({ decision: "stop", reason: "Enough for today" }) },
      }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.stopReason).toBe("hookStop");
    expect(result.value.stopDetail).toBe("Enough for today");
    expect(result.value.toolCalls[0]?.result.output).toBe("Tool call not run: a hook stopped the run");
    expect(model.requests).toHaveLength(1);
    expectConsistent(result.value.messages);
  });
});

describe("postToolUse and postToolUseFailure", () => {
  it("postToolUse may replace the output and add context", async () => {
    const { model, options } = scripted([calls(["echo", { text: "x" }]), says("ok")]);
    await runAgent(
      options({
        tools: [echo],
        hooks: {
          postToolUse: ({ result }) => ({
            output: result.output.toUpperCase(),
            context: "Checked by audit.",
          }),
        },
      }),
    );
    expect(lastUserBlocks(requestBody(model))[0]).toMatchObject({ content: "ECHO: X\n\nChecked by audit." });
  });

  it("postToolUseFailure sees the failure and may add context to the error result", async () => {
    const seen: unknown[] = [];
    const { model, options } = scripted([calls(["missing", {}]), says("ok")]);
    await runAgent(
      options({
        tools: [echo],
        hooks: {
          postToolUseFailure: ({ error, toolCall }) => {
            seen.push([toolCall.name, error.code]);
            return { context: "Try the echo tool." };
          },
        },
      }),
    );
    expect(seen).toEqual([["missing", "TOOL_NOT_FOUND"]]);
    expect(lastUserBlocks(requestBody(model))[0]).toMatchObject({
      content: 'Unknown tool "missing". Available tools: echo\n\nTry the echo tool.',
      is_error: true,
    });
  });

  it("a failing postToolUse hook with onFailure closed ends the run with its HookError", async () => {
    const { model, options } = scripted([calls(["echo", { text: "x" }]), says("never")]);
    const result = await runAgent(
      options({
        tools: [echo],
        hooks: {
          postToolUse: {
            name: "audit",
            onFailure: "closed",
            handler: () => {
              throw new Error("audit log unreachable");
            },
          },
        },
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      _tag: "HookError",
      code: "HOOK_FAILED",
      details: { hook: "audit", event: "postToolUse" },
    });
    expect(result.partial.stopReason).toBe("error");
    expect(model.requests).toHaveLength(1);
    expectConsistent(result.partial.messages);
  });
});

describe("prompt hooks", () => {
  it("sessionStart and userPromptSubmit context goes into the user message", async () => {
    const { model, options } = scripted([says("ok")]);
    await runAgent(
      options({
        prompt: "What's next?",
        hooks: {
          sessionStart: () => ({ context: "User prefers short answers." }),
          userPromptSubmit: ({ prompt }) => ({
            context: `Prompt length: ${JSON.stringify(prompt.content).length}`,
          }),
        },
      }),
    );
    expect(lastUserBlocks(requestBody(model)).map((block) => block.text)).toEqual([
      "User prefers short answers.",
      "What's next?",
      expect.stringMatching(/^Prompt length: \d+/),
    ]);
  });

  it("userPromptSubmit stop ends the run before any request, without adding the prompt", async () => {
    const { model, options } = scripted([says("never")]);
    const result = await runAgent(
      options({
        prompt: "rm -rf /",
        hooks: { userPromptSubmit: () => ({ decision: "stop", reason: "Blocked prompt" }) },
      }),
    );
    expect(result.ok && [result.value.stopReason, result.value.stopDetail, result.value.messages]).toEqual([
      "hookStop",
      "Blocked prompt",
      [],
    ]);
    expect(model.requests).toHaveLength(0);
  });

  it("sessionEnd runs once with the stop reason, also after a failure", async () => {
    const ends: unknown[] = [];
    const { options } = scripted([{ fault: { type: "http", status: 401 } }]);
    const result = await runAgent(
      options({ hooks: { sessionEnd: ({ stopReason, turn }) => void ends.push([stopReason, turn]) } }),
    );
    expect(result.ok).toBe(false);
    expect(ends).toEqual([["error", 1]]);
  });
});

describe("stop", () => {
  it("block continues the loop with the reason as a user message", async () => {
    const { model, options } = scripted([says("Draft."), says("Final, with tests.")]);
    let asked = 0;
    const result = await runAgent(
      options({
        hooks: {
          stop: ({ message }) => {
            asked++;
            const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
            return text.includes("tests") ? undefined : { decision: "block", reason: "Add tests first." };
          },
        },
      }),
    );
    expect(result.ok && result.value.text).toBe("Final, with tests.");
    expect(asked).toBe(2);
    expect(lastUserBlocks(requestBody(model))).toEqual([
      { type: "text", text: "Add tests first.", cache_control: { type: "ephemeral" } },
    ]);
  });

  it("a stop hook past its timeout fails open: the run ends normally and says so", async () => {
    const { options } = scripted([says("done")]);
    const run = runAgentStream(
      options({ hooks: { stop: { name: "judge", timeoutMs: 20, handler: () => new Promise(() => {}) } } }),
    );
    const events = await collect(run);
    const result = await run.result;
    expect(result.ok && result.value.stopReason).toBe("complete");
    expect(events.find((event) => event.type === "hook-error")).toMatchObject({
      event: "stop",
      hook: "judge",
      policy: "open",
      error: { code: "HOOK_TIMEOUT" },
    });
  });

  it("blocking is bounded by maxStopBlocks", async () => {
    const { model, options } = scripted([says("1"), says("2"), says("3"), says("4")]);
    const result = await runAgent(
      options({ maxStopBlocks: 2, hooks: { stop: () => ({ decision: "block", reason: "again" }) } }),
    );
    expect(result.ok && [result.value.text, result.value.turns, result.value.stopReason]).toEqual([
      "3",
      3,
      "complete",
    ]);
    expect(model.requests).toHaveLength(3);
  });
});

describe("abort during a hook", () => {
  it("ends a pending decision at once and reaches the hook's signal", async () => {
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    const { options } = scripted([calls(["echo", { text: "x" }]), says("never")]);
    const result = await runAgent(
      options({
        signal: controller.signal,
        tools: [echo],
        hooks: {
          preToolUse: ({ signal }) => {
            hookSignal = signal;
            setTimeout(() => controller.abort(new Error("user pressed stop")), 5);
            return new Promise(() => {});
          },
        },
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("ABORTED");
    expect(result.partial.stopReason).toBe("aborted");
    expect(hookSignal?.aborted).toBe(true);
    expect(result.partial.toolCalls[0]?.result.output).toBe("Tool call not run: the run was aborted");
    expectConsistent(result.partial.messages);
  });
});
