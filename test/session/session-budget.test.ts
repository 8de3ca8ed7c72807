/**
 * `sessionBudget`: limits on what all of a session's runs spend together, kept (with what was spent)
 * in the exported state, so a restored session goes on counting; `budget` still limits each run.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, defineTool, type SessionOptions, type SessionState } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

const noop = defineTool({
  name: "noop",
  description: "",
  inputSchema: { type: "object" },
  execute: () => "ok",
});
/** A turn that costs 150 tokens (100 in, 50 out). */
const costly = (turn: ScriptedTurn): ScriptedTurn => ({ ...turn, usage: { input: 100, output: 50 } });

async function session(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const created = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      tools: [noop],
      ...extra,
    }),
  );
  return { model, session: created };
}

describe("sessionBudget", () => {
  it("caps the session's tokens over its runs: the run that crosses it ends after that turn", async () => {
    const { model, session: s } = await session(
      [costly(says("one")), costly(calls(["noop", {}])), costly(says("never"))],
      { sessionBudget: { maxTokens: 250 } },
    );
    const first = await s.chat("first");
    expect(first.ok).toBe(true);
    const second = await s.chat("second");
    expect(!second.ok && second.error).toMatchObject({
      _tag: "BudgetError",
      code: "BUDGET_EXCEEDED",
      details: { limit: "maxTokens", allowed: 250, used: 300, scope: "session" },
    });
    expect(!second.ok && second.error.message).toBe(
      "Budget sessionBudget.maxTokens exceeded: 300 tokens used, 250 allowed",
    );
    expect(!second.ok && second.partial.stopReason).toBe("budget");
    expect(model.requests).toHaveLength(2);
    // The crossing turn's call is answered (not run), so the conversation can be continued.
    if (!second.ok) expectConsistent(second.partial.messages);
  });

  it("a run with nothing left ends at once, sends nothing and adds no message", async () => {
    const { model, session: s } = await session([costly(says("one")), costly(says("never"))], {
      sessionBudget: { maxTokens: 150 },
    });
    expect((await s.chat("first")).ok).toBe(true);
    const before = s.export().messages.length;
    const refused = await s.chat("second");
    expect(!refused.ok && [refused.error.code, refused.partial.stopReason]).toEqual([
      "BUDGET_EXCEEDED",
      "budget",
    ]);
    expect(!refused.ok && refused.error.details).toMatchObject({ scope: "session", used: 150, allowed: 150 });
    expect(model.requests).toHaveLength(1);
    expect(s.export().messages).toHaveLength(before);
  });

  it("is kept in the state with what was spent: a restored session goes on counting", async () => {
    const { session: s } = await session([costly(says("one"))], { sessionBudget: { maxTokens: 200 } });
    expect((await s.chat("first")).ok).toBe(true);
    const state = JSON.parse(JSON.stringify(s.export())) as SessionState;
    expect(state.parameters.sessionBudget).toEqual({ maxTokens: 200 });
    expect(state.usage).toMatchObject({ input: 100, output: 50 });

    const model = createScriptedModel({ script: [costly(says("two")), costly(says("never"))] });
    const restored = okValue(await createAgentSession({ apiKey: "k", fetch: model.fetch, restore: state }));
    // 150 spent of 200: room to start; its turn brings the session to 300, over the kept limit.
    const second = await restored.chat("second");
    expect(!second.ok && [second.error.details, second.partial.text]).toMatchObject([
      { scope: "session", limit: "maxTokens", used: 300 },
      "two",
    ]);
    const third = await restored.chat("third"); // nothing left: nothing sent
    expect(!third.ok && third.error.details).toMatchObject({ scope: "session", used: 300 });
    expect(model.requests).toHaveLength(1);
  });

  it("given again on restore, the option replaces the kept limits", async () => {
    const { session: s } = await session([costly(says("one"))], { sessionBudget: { maxTokens: 150 } });
    await s.chat("first");
    const model = createScriptedModel({ script: [costly(says("two"))] });
    const restored = okValue(
      await createAgentSession({
        apiKey: "k",
        fetch: model.fetch,
        restore: s.export(),
        sessionBudget: { maxTokens: 1_000 },
      }),
    );
    expect((await restored.chat("second")).ok).toBe(true);
    expect(restored.export().parameters.sessionBudget).toEqual({ maxTokens: 1_000 });
  });

  it("caps cost in USD with the model's price, and a cost cap needs a price", async () => {
    const { session: s } = await session([costly(calls(["noop", {}])), costly(says("never"))], {
      sessionBudget: { maxCostUsd: 0.000_1 },
      prices: { "claude-sonnet-4-5": { input: 1, output: 1 } },
    });
    const run = await s.chat("go"); // 150 tokens at $1/M: $0.00015
    expect(!run.ok && run.error.details).toMatchObject({ limit: "maxCostUsd", scope: "session" });
    expect(
      failure(
        await createAgentSession({
          model: "openai/my-local-model",
          apiKey: "k",
          sessionBudget: { maxCostUsd: 1 },
        }),
      ),
    ).toMatchObject({ _tag: "ConfigError", path: "sessionBudget.maxCostUsd" });
  });

  it("checks the run's budget and the session's apart: the run's names scope run", async () => {
    const { session: s } = await session([costly(calls(["noop", {}])), costly(says("never"))], {
      budget: { maxTokens: 100 },
      sessionBudget: { maxTokens: 10_000 },
    });
    const run = await s.chat("go");
    expect(!run.ok && run.error.details).toMatchObject({ scope: "run", limit: "maxTokens" });
  });

  it("refuses bad limits, and maxTurns in it, at creation", async () => {
    await expect(session([], { sessionBudget: { maxTokens: -1 } })).rejects.toMatchObject({
      path: "sessionBudget.maxTokens",
    });
    await expect(session([], { sessionBudget: { maxTurns: 3 } as never })).rejects.toMatchObject({
      path: "sessionBudget.maxTurns",
    });
  });

  it("a crafted state with a bad kept budget is refused on restore", async () => {
    const { session: s } = await session([]);
    const state = s.export();
    const crafted = { ...state, parameters: { sessionBudget: { maxTokens: "lots" } } };
    expect(failure(await createAgentSession({ apiKey: "k", restore: crafted }))).toMatchObject({
      _tag: "ConfigError",
    });
  });
});
