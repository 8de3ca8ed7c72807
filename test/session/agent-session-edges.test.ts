/**
 * createAgentSession (src/session/agent-session.ts) at its edges: a cost budget (the run's or the
 * session's) takes the model's price from the provider's own table, and only a cost budget loads the
 * provider's code at creation; a `restore` value the state parser cannot even read is a ConfigError at
 * `restore` that says so.
 */
import { describe, expect, it, vi } from "vitest";
import { createAgentSession } from "../../src/index.ts";
import { loadProvider } from "../../src/providers/registry.ts";
import { failure, okValue } from "../support/results.ts";

vi.mock(import("../../src/providers/registry.ts"), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, loadProvider: vi.fn(actual.loadProvider) };
});

const base = { model: "anthropic/claude-sonnet-5-5", apiKey: "k" } as const;

describe("a cost budget at creation", () => {
  it("finds the model's price in the provider's table, for the run's budget or the session's", async () => {
    okValue(await createAgentSession({ ...base, budget: { maxCostUsd: 1 } }));
    okValue(await createAgentSession({ ...base, sessionBudget: { maxCostUsd: 1 } }));
    okValue(
      await createAgentSession({ ...base, budget: { maxCostUsd: 1 }, sessionBudget: { maxCostUsd: 2 } }),
    );
  });

  it("is the only reason creation loads the provider's code", async () => {
    vi.mocked(loadProvider).mockClear();
    okValue(await createAgentSession({ ...base, budget: { maxTokens: 100 } }));
    expect(loadProvider).not.toHaveBeenCalled();
    okValue(await createAgentSession({ ...base, budget: { maxCostUsd: 1 } }));
    expect(loadProvider).toHaveBeenCalledWith("anthropic");
  });
});

describe("a restore the parser cannot read", () => {
  it("is a ConfigError at restore that names the cause", async () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("no reading this");
        },
        ownKeys() {
          throw new Error("no reading this");
        },
        getPrototypeOf() {
          throw new Error("no reading this");
        },
      },
    );
    const error = failure(await createAgentSession({ ...base, restore: hostile as never }));
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "restore" });
    expect(error.message).toBe("restore is not a session state Wisp can read: no reading this");
  });
});
