/**
 * Every way a run ends besides "the model is done": budgets (tokens, USD, turns), the turn limit,
 * refusal, provider errors, retries, and bad options — each with its stop reason, typed error, and a
 * conversation that is still valid to continue.
 */
import { describe, expect, it } from "vitest";
import { type Budget, defineTool, runAgent, runAgentStream, uncheckedModel } from "../../src/index.ts";
import { calls, expectConsistent, says, scripted } from "../support/agent.ts";
import { fixtureText } from "../support/fixtures.ts";

const noop = defineTool({
  name: "noop",
  description: "",
  inputSchema: { type: "object" },
  execute: () => "ok",
});
const loopForever = () => ({ ...calls(["noop", {}]), usage: { input: 100, output: 50 } });

describe("budgets", () => {
  it("maxTokens ends the run with stopReason budget and a BudgetError naming limit, usage and allowance", async () => {
    const { model, options } = scripted([loopForever(), loopForever(), loopForever()]);
    const result = await runAgent(options({ tools: [noop], budget: { maxTokens: 200 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      _tag: "BudgetError",
      code: "BUDGET_EXCEEDED",
      details: { limit: "maxTokens", allowed: 200, used: 300, usage: { input: 200, output: 100 } },
    });
    expect(result.error.message).toBe("Budget budget.maxTokens exceeded: 300 tokens used, 200 allowed");
    expect(result.partial.stopReason).toBe("budget");
    expect(result.partial.turns).toBe(2);
    expect(model.requests).toHaveLength(2);
    // the second turn's call was not run, but it is answered
    expect(result.partial.messages.at(-1)).toMatchObject({
      role: "tool_result",
      content: [
        {
          isError: true,
          output: "Tool call not run: Budget budget.maxTokens exceeded: 300 tokens used, 200 allowed",
        },
      ],
    });
    expectConsistent(result.partial.messages);
  });

  it("maxCostUsd uses the price table, and the caller's prices override it", async () => {
    const { options } = scripted([loopForever(), loopForever()]);
    // 100 input at $3/M + 50 output at $15/M = $0.00105 per turn
    const result = await runAgent(options({ tools: [noop], budget: { maxCostUsd: 0.001 } }));
    expect(!result.ok && result.error.details).toMatchObject({
      limit: "maxCostUsd",
      allowed: 0.001,
      used: 0.00105,
    });
    expect(!result.ok && result.partial.turns).toBe(1);

    const cheap = scripted([loopForever(), says("done")]);
    const priced = await runAgent(
      cheap.options({
        tools: [noop],
        budget: { maxCostUsd: 0.001 },
        prices: { "claude-sonnet-4-5": { input: 1, output: 1 } },
      }),
    );
    expect(priced.ok).toBe(true);
    if (!priced.ok) return;
    const { input, output, costUsd } = priced.value.usage;
    expect(costUsd).toBeCloseTo((input + output) / 1_000_000, 12);
  });

  it("maxCostUsd on a model without a price is a ConfigError before any request", async () => {
    const { model, options } = scripted([says("never")], "openai/my-local-model");
    const result = await runAgent(options({ budget: { maxCostUsd: 1 } }));
    expect(!result.ok && result.error).toMatchObject({ _tag: "ConfigError", path: "budget.maxCostUsd" });
    expect(model.requests).toHaveLength(0);
  });

  it("budget.maxTurns is refused before any request, pointing at maxTurns, the one turn limit", async () => {
    const { model, options } = scripted([loopForever()]);
    const crafted = { maxTurns: 2 } as unknown as Budget;
    const result = await runAgent(options({ tools: [noop], budget: crafted }));
    expect(!result.ok && result.error).toMatchObject({ _tag: "ConfigError", path: "budget.maxTurns" });
    expect(!result.ok && result.error.message).toBe("budget.maxTurns: use the top-level maxTurns");
    expect(model.requests).toHaveLength(0);
  });

  it("a BudgetError says which limit, for what scope, what was allowed and used", async () => {
    const { options } = scripted([loopForever(), loopForever()]);
    const result = await runAgent(options({ tools: [noop], budget: { maxTokens: 1 } }));
    expect(!result.ok && result.error.details).toMatchObject({
      limit: "maxTokens",
      allowed: 1,
      scope: "run",
    });
    expect(!result.ok && result.error.message).toMatch(
      /^Budget budget\.maxTokens exceeded: \d+ tokens used, 1 allowed$/,
    );
  });
});

describe("maxTurns", () => {
  it("ends a model that keeps calling tools with stopReason maxTurns (default 25)", async () => {
    const { model, options } = scripted(Array.from({ length: 30 }, loopForever));
    const result = await runAgent(options({ tools: [noop] }));
    expect(!result.ok && [result.error.code, result.partial.stopReason, result.partial.turns]).toEqual([
      "MAX_TURNS",
      "maxTurns",
      25,
    ]);
    expect(model.requests).toHaveLength(25);
    if (!result.ok) expectConsistent(result.partial.messages);
  });

  it("is configurable", async () => {
    const { options } = scripted(Array.from({ length: 5 }, loopForever));
    const result = await runAgent(options({ tools: [noop], maxTurns: 3 }));
    expect(!result.ok && result.partial.turns).toBe(3);
    expect(!result.ok && result.error.message).toBe(
      "Turn limit reached: maxTurns is 3, all taken, and the run needed another turn",
    );
  });
});

describe("the model's own endings", () => {
  it("refusal and max tokens end the run as the model ended its turn", async () => {
    const refusal = scripted([{ content: [{ type: "text", text: "I can't" }], stopReason: "refusal" }]);
    const refused = await runAgent(refusal.options());
    expect(refused.ok && refused.value.stopReason).toBe("refusal");
    const long = scripted([{ content: [{ type: "text", text: "and so" }], stopReason: "max_tokens" }]);
    const cut = await runAgent(long.options());
    expect(cut.ok && cut.value.stopReason).toBe("maxTokens");
  });

  it("a turn cut off at max tokens mid tool call ends the run: its calls are answered as not run", async () => {
    // The recorded stream: text, then a make_file call whose arguments stop mid-string at max_tokens.
    let requests = 0;
    const recorded = async () => {
      requests++;
      return new Response(fixtureText("anthropic/max-tokens-mid-tool-input.sse"), {
        headers: { "content-type": "text/event-stream" },
      });
    };
    const ran: unknown[] = [];
    const makeFile = defineTool({
      name: "make_file",
      description: "",
      inputSchema: { type: "object" },
      execute: (input) => ran.push(input),
    });
    for (const tools of [[makeFile], []]) {
      requests = 0;
      const result = await runAgent({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "test-key",
        fetch: recorded,
        prompt: "Write a tax guide to taxes.txt",
        tools,
      });
      expect(result.ok && result.value.stopReason).toBe("maxTokens");
      if (!result.ok) return;
      // One request: the cut-off turn is not sent back for the model to cut off again.
      expect(requests).toBe(1);
      expect(result.value.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool_result",
      ]);
      expect(result.value.messages.at(-1)).toMatchObject({
        content: [{ isError: true, output: expect.stringContaining("cut off at the output token limit") }],
      });
      expectConsistent(result.value.messages);
    }
    expect(ran).toEqual([]);
  });

  it("a provider error ends the run with the classified error and the partial conversation", async () => {
    const { options } = scripted([calls(["noop", {}]), { fault: { type: "http", status: 529 } }]);
    const result = await runAgent(options({ tools: [noop] }));
    expect(!result.ok && result.error).toMatchObject({
      _tag: "ProviderError",
      code: "OVERLOADED",
      retryable: true,
    });
    if (result.ok) return;
    expect(result.partial.stopReason).toBe("error");
    expect(result.partial.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "assistant",
    ]);
    expect(result.partial.messages.at(-1)).toMatchObject({
      stopReason: "error",
      error: { code: "OVERLOADED" },
    });
  });

  it("a stream that breaks after a tool call started answers the cut call as not run", async () => {
    const { options } = scripted([{ ...calls(["noop", {}]), fault: { type: "truncate", afterEvents: 5 } }]);
    const result = await runAgent(options({ tools: [noop] }));
    expect(!result.ok && result.error.code).toBe("STREAM_TRUNCATED");
    if (!result.ok) expectConsistent(result.partial.messages);
  });

  it("retries are reported as events and the run goes on", async () => {
    const { options } = scripted([{ fault: { type: "http", status: 429, retryAfterMs: 1 } }, says("ok")]);
    const run = runAgentStream(options({ retry: { maxRetries: 2, initialDelayMs: 1 } }));
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    expect(types.slice(0, 4)).toEqual(["run-start", "message", "turn-start", "retry"]);
    expect(types.at(-1)).toBe("run-end");
    expect((await run.result).ok).toBe(true);
  });
});

describe("bad options", () => {
  it.each([
    [{ maxTurns: 0 }, "maxTurns"],
    [{ maxTokens: 1.5 }, "maxTokens"],
    [{ temperature: -1 }, "temperature"],
    [{ budget: { maxTokens: -5 } }, "budget.maxTokens"],
    [{ tools: [noop, noop] }, "tools.1.name"],
    [{ tools: [{ name: "x" } as never] }, "tools.0"],
    [{ model: uncheckedModel("mystery/model-1") }, "provider"],
    [{ prompt: "  " }, "prompt"],
    [{ prompt: [] }, "prompt"],
    [{ prompt: [], attachments: [{ type: "image" as const }] }, "attachments.0"],
    [{ messages: [{ id: "m", role: "user", content: "hi", timestamp: 0 }] as never }, "messages.0.content"],
    [{ messages: [{ role: "robot" }] as never }, "messages.0.role"],
    [
      {
        messages: [
          {
            id: "a",
            role: "assistant",
            content: [{ type: "tool_call", id: "c1", name: "noop", args: {} }],
            timestamp: 0,
            provider: "anthropic",
            model: "m",
            usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
            stopReason: "toolUse",
          },
        ] as never,
      },
      "messages.0",
    ],
  ])("%j is a ConfigError naming %s, and nothing is sent", async (extra, path) => {
    const { model, options } = scripted([says("never")]);
    const result = await runAgent(options(extra));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
    expect(result.partial.stopReason).toBe("error");
    expect(model.requests).toHaveLength(0);
  });
});
