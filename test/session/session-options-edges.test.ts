/**
 * The options of a session and of its calls at their edges: the words of each "not an object"
 * refusal, `metadata` that is not plain JSON, the shortest `approvalSecret` taken, a session with
 * no model, and how a restored state's settings and the caller's options combine (the caller's win).
 */
import { describe, expect, it } from "vitest";
import {
  type AgentSession,
  createAgentSession,
  type SessionOptions,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";
import { sessionState } from "../support/session-state.ts";

const saved = sessionState({
  systemPrompt: "Be old.",
  thinking: "low",
  parameters: { maxTokens: 50, temperature: 0.5, stopSequences: ["END"], maxTurns: 3 },
});

function options(extra: Partial<SessionOptions> = {}): SessionOptions {
  const model = createScriptedModel({ script: [says("ok")] });
  return { model: uncheckedModel("anthropic/claude-sonnet-4-5"), apiKey: "k", fetch: model.fetch, ...extra };
}

async function session(extra: Partial<SessionOptions> = {}): Promise<AgentSession> {
  return okValue(await createAgentSession(options(extra)));
}

describe("options that are not an object", () => {
  it("the session's options", async () => {
    const error = failure(await createAgentSession(null as never));
    expect(error).toMatchObject({ code: "CONFIG_INVALID", path: "" });
    expect(error.message).toBe("The session's options must be an object of options, got null");
  });

  it("a chat's options", async () => {
    const result = await (await session()).chat("hi", 5 as never);
    expect(failure(result).message).toBe("The chat options must be an object of options, got number");
  });

  it("a resume's options", async () => {
    const result = await (await session()).resume([], "fast" as never);
    expect(failure(result).message).toBe("The resume options must be an object of options, got string");
  });
});

describe("session options refused", () => {
  it("metadata that is not plain JSON, saying what plain JSON is", async () => {
    const error = failure(await createAgentSession(options({ metadata: { when: new Date(0) } as never })));
    expect(error).toMatchObject({ code: "CONFIG_INVALID", path: "metadata" });
    expect(error.message).toMatch(
      /^metadata must be plain JSON nested at most \d+ levels deep \(no undefined/,
    );
  });

  it("an approvalSecret shorter than 16 characters, but not one of 16", async () => {
    const error = failure(await createAgentSession(options({ approvalSecret: "x".repeat(15) })));
    expect(error).toMatchObject({ code: "CONFIG_INVALID", path: "approvalSecret" });
    expect(error.message).toBe("approvalSecret must be a string of at least 16 characters");
    okValue(await createAgentSession(options({ approvalSecret: "x".repeat(16) })));
  });

  it("no model and no state to restore", async () => {
    const { model: _, ...noModel } = options();
    const error = failure(await createAgentSession(noModel));
    expect(error).toMatchObject({ code: "CONFIG_INVALID", path: "model" });
    expect(error.message).toBe("A session needs a model (or a state to restore)");
  });
});

describe("a restored state's settings and the caller's options", () => {
  it("the state's settings apply where the caller gives none", async () => {
    const state = (await session({ restore: saved })).export();
    expect(state.systemPrompt).toBe("Be old.");
    expect(state.thinking).toBe("low");
    expect(state.parameters).toEqual(saved.parameters);
  });

  it("the caller's options win over the state's", async () => {
    const parameters = { maxTokens: 100, temperature: 1, stopSequences: ["STOP"], maxTurns: 7 };
    const restored = await session({
      restore: saved,
      systemPrompt: "Be new.",
      thinking: "high",
      ...parameters,
    });
    const state = restored.export();
    expect(state.systemPrompt).toBe("Be new.");
    expect(state.thinking).toBe("high");
    expect(state.parameters).toEqual(parameters);
  });
});
