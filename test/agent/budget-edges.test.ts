/**
 * Budgets at their edges: a run's budget reached exactly is not exceeded; a cost limit names the
 * dollars spent; the turn limit's BudgetError carries what it allowed, used and held for.
 */
import { describe, expect, it } from "vitest";
import { defineTool, runAgent } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";

const noop = defineTool({
  name: "noop",
  description: "Does nothing",
  inputSchema: { type: "object" },
  execute: () => "ok",
});

describe("a run's budget", () => {
  it("reached exactly by a turn lets the run go on; only going over ends it", async () => {
    const { model, options } = scripted([
      { ...calls(["noop", {}]), usage: { input: 10, output: 5 } },
      { ...says("Done."), usage: { input: 0, output: 0 } },
    ]);
    const result = await runAgent(options({ tools: [noop], budget: { maxTokens: 15 } }));
    if (!result.ok) throw result.error;
    expect([result.value.stopReason, result.value.text]).toEqual(["complete", "Done."]);
    expect(model.requests).toHaveLength(2);
  });

  it("of dollars names what was spent in USD", async () => {
    const { options } = scripted([calls(["noop", {}]), says("never")]);
    const result = await runAgent(options({ tools: [noop], budget: { maxCostUsd: 1e-9 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.partial.stopReason).toBe("budget");
    expect(result.partial.stopDetail).toBe("maxCostUsd");
    const used = result.error.details?.used as number;
    expect(used).toBeGreaterThan(0);
    expect(result.error).toMatchObject({
      _tag: "BudgetError",
      code: "BUDGET_EXCEEDED",
      message: `Budget budget.maxCostUsd exceeded: USD ${used.toFixed(6)} spent, 1e-9 allowed`,
      details: { limit: "maxCostUsd", allowed: 1e-9, scope: "run" },
    });
  });
});

describe("maxTurns", () => {
  it("reached is a MAX_TURNS BudgetError with the limit, the turns and the run's usage", async () => {
    const { options } = scripted([calls(["noop", {}]), calls(["noop", {}]), says("never")]);
    const result = await runAgent(options({ tools: [noop], maxTurns: 2 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.partial.stopReason).toBe("maxTurns");
    expect(result.partial.stopDetail).toBe("maxTurns");
    expect(result.error).toMatchObject({ _tag: "BudgetError", code: "MAX_TURNS" });
    expect(result.error.details).toEqual({
      limit: "maxTurns",
      allowed: 2,
      used: 2,
      usage: result.partial.usage,
      scope: "run",
    });
  });
});
