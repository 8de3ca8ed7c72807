/**
 * check-config.ts at its edges: a cost limit for a model without a price is refused before anything
 * is sent, with a message that names the model and the option that gives it a price; `prices` fixes it.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, runAgent, uncheckedModel } from "../../src/index.ts";
import { says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

describe("a cost limit needs the model's price", () => {
  it("a run's budget.maxCostUsd for an unpriced model names the model and the prices option", async () => {
    const { model, options } = scripted([says("hi")]);
    const limited = options({
      model: uncheckedModel("anthropic/claude-unpriced-1"),
      budget: { maxCostUsd: 1 },
    });
    expect(failure(await runAgent(limited))).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "budget.maxCostUsd",
      message: 'budget.maxCostUsd needs a price for model "claude-unpriced-1"; add it with the prices option',
    });
    expect(model.requests).toHaveLength(0);
    const priced = await runAgent({ ...limited, prices: { "claude-unpriced-1": { input: 1, output: 1 } } });
    expect(okValue(priced).text).toBe("hi");
  });

  it("a session's sessionBudget.maxCostUsd says the same at its own path", async () => {
    const created = await createAgentSession({
      model: "openai/my-local-model",
      apiKey: "k",
      sessionBudget: { maxCostUsd: 1 },
    });
    expect(failure(created)).toMatchObject({
      path: "sessionBudget.maxCostUsd",
      message:
        'sessionBudget.maxCostUsd needs a price for model "my-local-model"; add it with the prices option',
    });
  });
});
