/**
 * SessionState: export → JSON → restore gives a session whose next request is byte for byte the one
 * the original would have sent; invalid states are ConfigErrors naming the first bad path; a fake
 * version 0 migrates.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  createAgentSession,
  defineTool,
  MAX_STATE_MESSAGES,
  parseSessionState,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { expectConsistent, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

const lookup = defineTool({
  name: "lookup",
  description: "Looks up",
  input: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});

const HISTORY: ScriptedTurn[] = [
  {
    content: [
      { type: "thinking", text: "I should look it up.", signature: "sig-abc" },
      { type: "text", text: "Looking." },
      { type: "tool_call", name: "lookup", args: { q: "pelicans" } },
    ],
  },
  {
    content: [
      { type: "redacted_thinking", data: "opaque==" },
      { type: "text", text: "Pelicans fish." },
    ],
  },
];

function config(model: ReturnType<typeof createScriptedModel>): Omit<AgentOptions, "prompt"> {
  return {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    tools: [lookup],
    systemPrompt: "Be brief.",
    thinking: "low",
    maxTokens: 500,
    stopSequences: ["###"],
  };
}

async function sessionWithHistory() {
  const model = createScriptedModel({ script: [...HISTORY] });
  const session = okValue(await createAgentSession({ ...config(model), metadata: { user: "ada" } }));
  const first = await session.chat([
    { type: "text", text: "Tell me about pelicans" },
    { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
  ]);
  expect(first.ok).toBe(true);
  return { session, model };
}

describe("export and restore", () => {
  it("survive JSON and send the provider exactly the request the original would have", async () => {
    const { session } = await sessionWithHistory();
    const state = session.export();
    const restoredState = JSON.parse(JSON.stringify(state)) as SessionState;
    expect(restoredState).toEqual(state);
    expect(JSON.stringify(state)).not.toContain('"k"'); // no API key

    const originalModel = createScriptedModel({ script: [says("Next.")] });
    const original = okValue(await createAgentSession({ ...config(originalModel), restore: state }));
    const copyModel = createScriptedModel({ script: [says("Next.")] });
    // Only functions and secrets are passed again: model, prompt and parameters come from the state.
    const copy = okValue(
      await createAgentSession({
        apiKey: "k",
        fetch: copyModel.fetch,
        tools: [lookup],
        restore: restoredState,
      }),
    );
    await original.chat("And their beaks?");
    await copy.chat("And their beaks?");
    expect(copyModel.requests[0]?.bodyText).toBe(originalModel.requests[0]?.bodyText);
    // the history went out whole: signature, redacted thinking, image, tool use and result
    const sent = copyModel.requests[0]?.bodyText ?? "";
    for (const needle of [
      "sig-abc",
      "opaque==",
      "iVBORw0KGgo=",
      "found pelicans",
      '"system":[{"type":"text","text":"Be brief."',
      '"stop_sequences":["###"]',
    ])
      expect(sent).toContain(needle);
  });

  it("keeps everything needed to continue", async () => {
    const { session } = await sessionWithHistory();
    const state = session.export();
    expect(state).toMatchObject({
      version: 2,
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      systemPrompt: "Be brief.",
      thinking: "low",
      parameters: { maxTokens: 500, stopSequences: ["###"] },
      turns: 2,
      queue: [],
      metadata: { user: "ada" },
    });
    expect(state.usage.output).toBeGreaterThan(0);
    expect(state.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "assistant",
    ]);
    const restored = okValue(
      await createAgentSession({ apiKey: "k", restore: JSON.parse(JSON.stringify(state)) }),
    );
    expect(restored.sessionId).toBe(session.sessionId);
    expect(restored.export()).toEqual(state);
  });
});

describe("invalid states", () => {
  const valid = async () =>
    (await sessionWithHistory()).session.export() as unknown as Record<string, unknown>;
  const cases: Array<[string, (state: any) => unknown, string]> = [
    ["a newer version", (state) => ({ ...state, version: 3 }), "version"],
    ["a version that is not a number", (state) => ({ ...state, version: "1" }), "version"],
    ["no messages", ({ messages: _, ...state }) => state, "messages"],
    [
      "a message of an unknown role",
      (state) => ({ ...state, messages: [{ ...state.messages[0], role: "system" }] }),
      "messages.0.role",
    ],
    [
      "text that is not a string",
      (state) => {
        state.messages[0].content[0].text = 42;
        return state;
      },
      "messages.0.content.0.text",
    ],
    [
      "a negative token count",
      (state) => ({ ...state, usage: { ...state.usage, output: -1 } }),
      "usage.output",
    ],
    [
      "a tool call without its result",
      (state) => ({ ...state, messages: state.messages.slice(0, 2) }),
      "messages.1",
    ],
    [
      "results that answer nothing",
      (state) => ({ ...state, messages: [state.messages[0], state.messages[2]] }),
      "messages.1",
    ],
    [
      "too many messages",
      (state) => ({
        ...state,
        messages: Array.from({ length: MAX_STATE_MESSAGES + 1 }, () => state.messages[0]),
      }),
      "messages",
    ],
    ["not an object", () => "hello", ""],
  ];
  it.each(cases)("%s is CONFIG_INVALID at %s", async (_name, mutate, path) => {
    const broken = mutate(structuredClone(await valid()));
    const error = (() => {
      try {
        parseSessionState(broken);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
    expect(failure(await createAgentSession({ apiKey: "k", restore: broken }))).toMatchObject({ path });
  });

  it("migrates a version 0 state", async () => {
    const state = (await valid()) as Record<string, unknown>;
    const { provider, model, parameters: _, turns: __, queue: ___, metadata: ____, ...rest } = state;
    const { pendingApprovals: _p, pendingResults: _r, toolPermissions: _t, ...v1Fields } = rest;
    const v0 = { ...v1Fields, version: 0, model: `${provider}/${model}` };
    const migrated = parseSessionState(v0);
    expect(migrated).toMatchObject({
      version: 2,
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      queue: [],
      turns: 0,
      pendingApprovals: [],
      toolPermissions: {},
    });
    expectConsistent(migrated.messages);
  });

  it("migrates a version 1 state: nothing pending, no standing answers, the rest as it was", async () => {
    const state = (await valid()) as Record<string, unknown>;
    const { pendingApprovals: _, pendingResults: __, toolPermissions: ___, ...v1 } = state;
    const migrated = parseSessionState({ ...v1, version: 1 });
    expect(migrated).toEqual({
      ...state,
      version: 2,
      pendingApprovals: [],
      pendingResults: [],
      toolPermissions: {},
    });
    const restored = okValue(await createAgentSession({ apiKey: "k", restore: { ...v1, version: 1 } }));
    expect(restored.snapshot().pendingApprovals).toBe(0);
  });
});
