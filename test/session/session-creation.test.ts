/**
 * Creating a session follows one rule for `createAgentSession` and `createSession`: both are async,
 * and bad options or a bad `restore` reject with a ConfigError that names the problem — never a
 * TypeError, never a session that fails on every later call. Once created, `chat`, `stream`,
 * `send` and `prompt` never throw for a run that fails.
 */
import { describe, expect, it, vi } from "vitest";
import {
  createAgentSession,
  createSession,
  defineTool,
  isSdkError,
  prompt,
  type SessionOptions,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const MODEL = "anthropic/claude-sonnet-4-5";

function scriptedOptions(script: ScriptedTurn[] = [says("hi")]) {
  const model = createScriptedModel({ script });
  const options = { model: MODEL, apiKey: "k", fetch: model.fetch, retry: { maxRetries: 0 } } as const;
  return { model, options };
}

/**
 * The error of the failed Result `create(options)` resolved to; fails the test when it threw, rejected
 * or succeeded: bad input never throws or rejects.
 */
async function rejection(create: (options: never) => Promise<unknown>, options: unknown): Promise<unknown> {
  let pending: Promise<unknown> | undefined;
  expect(() => {
    pending = create(options as never);
  }).not.toThrow();
  expect(pending).toBeInstanceOf(Promise);
  const settled = (await pending) as { ok?: unknown; error?: unknown; type?: unknown };
  // prompt() answers with an error ResultMessage, the others with a failed Result.
  if (settled.type === "result") return settled.error;
  expect(settled.ok).toBe(false);
  return settled.error;
}

const CREATORS = [
  ["createAgentSession", createAgentSession],
  ["createSession", createSession],
] as const;

describe.each(CREATORS)(
  "%s answers bad options with a failed Result holding a ConfigError",
  (_name, create) => {
    const { options: base } = scriptedOptions();

    it.each([
      ["options that are undefined", undefined, ""],
      ["options that are null", null, ""],
      ["options that are a string", "anthropic/claude-sonnet-4-5", ""],
      ["an unknown key", { ...base, systemPromt: "Be brief" }, "systemPromt"],
      ["a snake_case key", { ...base, max_tokens: 100 }, "max_tokens"],
      ["no model and nothing to restore", { ...base, model: undefined }, "model"],
      ["a number as model", { ...base, model: 7 }, "model"],
      ["an unknown provider", { ...base, model: "mystery/model-1" }, "provider"],
      ["a temperature out of Anthropic's range", { ...base, temperature: 1.5 }, "temperature"],
      ["a thinking level that does not exist", { ...base, thinking: "max" }, "thinking"],
      ["maxTokens that is no positive integer", { ...base, maxTokens: 0.5 }, "maxTokens"],
      ["maxTurns 0", { ...base, maxTurns: 0 }, "maxTurns"],
      ["tools that are not an array", { ...base, tools: "calculator" }, "tools"],
      [
        "a tool without execute",
        { ...base, tools: [{ name: "x", description: "x", inputSchema: {} }] },
        "tools.0",
      ],
      ["a hook under a misspelt event", { ...base, hooks: { preTooluse: () => {} } }, "hooks.preTooluse"],
      ["a baseURL that is no URL", { ...base, baseURL: "localhost:11434" }, "baseURL"],
      ["a number as sessionId", { ...base, sessionId: 7 }, "sessionId"],
      // What a session would store but its restore refuse:
      ["an empty sessionId", { ...base, sessionId: "" }, "sessionId"],
      ["a sessionId of 1,001 characters", { ...base, sessionId: "s".repeat(1001) }, "sessionId"],
      ["maxTokens past the safe integers", { ...base, maxTokens: 2 ** 60 }, "maxTokens"],
      ["maxTurns past the safe integers", { ...base, maxTurns: 2 ** 60 }, "maxTurns"],
      ["metadata holding a BigInt", { ...base, metadata: { n: 1n } }, "metadata"],
      ["metadata holding a Map", { ...base, metadata: { m: new Map() } }, "metadata"],
      ["metadata that is a string", { ...base, metadata: "notes" }, "metadata"],
      [
        "a cost budget for a model without a price",
        { ...base, model: "anthropic/unpriced-1", budget: { maxCostUsd: 1 } },
        "budget.maxCostUsd",
      ],
    ])("%s: a ConfigError naming it", async (_case, options, path) => {
      const error = await rejection(create, options);
      expect(isSdkError(error)).toBe(true);
      expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
    });

    it.each([
      ["null", null],
      ["a number", 0],
      ["an array", []],
      ["a string of JSON not yet parsed", '{"version":1}'],
      [
        "a crafted version 0 whose model has no toString",
        JSON.parse('{"version":0,"model":{"toString":null}}'),
      ],
      ["a state from a newer Wisp", { version: 99 }],
      ["a state with a __proto__ key", JSON.parse('{"version":1,"__proto__":{"sessionId":"x"}}')],
    ])("a restore of %s is a ConfigError, never a TypeError", async (_case, restore) => {
      const error = await rejection(create, { ...base, restore });
      expect(isSdkError(error)).toBe(true);
      expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
      expect(typeof (error as { path?: unknown }).path).toBe("string");
    });

    it("a restore whose fields throw when read is a ConfigError at restore", async () => {
      const hostile = {
        get version(): number {
          throw new TypeError("boom");
        },
      };
      const error = await rejection(create, { ...base, restore: hostile });
      expect(isSdkError(error)).toBe(true);
      expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "restore" });
    });

    it("a restored temperature the new provider refuses is refused at temperature", async () => {
      const { options } = scriptedOptions();
      const openai = okValue(
        await createAgentSession({ ...options, model: "openai/gpt-5", temperature: 1.5 }),
      );
      const state = JSON.parse(JSON.stringify(openai.export()));
      const error = await rejection(create, { ...options, restore: state });
      expect(error).toMatchObject({ _tag: "ConfigError", path: "temperature" });
      expect((error as Error).message).toContain("anthropic");
    });
  },
);

describe("options that throw when read", () => {
  it("a hostile Proxy as options is a failed Result for createSession and an error result for prompt", async () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("no keys for you");
        },
      },
    );
    const created = await createSession(hostile as never);
    expect(created.ok).toBe(false);
    const answered = await prompt("hi", hostile as never);
    expect(answered).toMatchObject({ subtype: "error", isError: true });
  });
});

describe("creating a session", () => {
  it("createAgentSession and createSession both return promises of a Result holding the session", async () => {
    const { options } = scriptedOptions();
    const agent = createAgentSession(options);
    const messages = createSession(options);
    expect(agent).toBeInstanceOf(Promise);
    expect(messages).toBeInstanceOf(Promise);
    const [a, m] = await Promise.all([agent, messages]);
    expect(typeof okValue(a).chat).toBe("function");
    expect(typeof okValue(m).send).toBe("function");
  });

  it("createSession checks tools before reading their names", async () => {
    const error = await rejection(createSession, { model: MODEL, apiKey: "k", tools: [null] });
    expect(error).toMatchObject({ _tag: "ConfigError", path: "tools.0" });
  });

  it("without an apiKey a session is created and exports, and its first run is the ConfigError, nothing sent", async () => {
    const global = vi.fn(async () => new Response("no"));
    vi.stubGlobal("fetch", global);
    try {
      const session = okValue(await createAgentSession({ model: MODEL, apiKey: undefined }));
      expect(session.export().model).toBe("claude-sonnet-4-5");
      const result = await session.chat("hi");
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error).toMatchObject({ _tag: "ConfigError", path: "apiKey" });
        expect(result.error.message).toContain("ANTHROPIC_API_KEY");
      }
      expect(global).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("chat and stream options", () => {
  it.each([
    ["null", null, ""],
    ["a string", "steer", ""],
    ["an unknown key", { sigal: AbortSignal.timeout(1000) }, "sigal"],
    ["a mode that does not exist", { mode: "stear" }, "mode"],
    ["a signal that is no AbortSignal", { signal: "stop" }, "signal"],
    ["an id that is no string", { id: 5 }, "id"],
    ["attachments that are no array", { attachments: "x.png" }, "attachments"],
  ])(
    "%s is a ConfigError result from chat and stream, never a throw, and nothing is sent",
    async (_case, chatOptions, path) => {
      const { model, options } = scriptedOptions([says("after")]);
      const session = okValue(await createAgentSession(options));
      let chatted: Promise<unknown> | undefined;
      let streamed: ReturnType<typeof session.stream> | undefined;
      expect(() => {
        chatted = session.chat("hi", chatOptions as never);
        streamed = session.stream("hi", chatOptions as never);
      }).not.toThrow();
      for (const result of [await chatted, await streamed?.result]) {
        expect(result).toMatchObject({
          ok: false,
          error: { _tag: "ConfigError", code: "CONFIG_INVALID", path },
        });
      }
      expect(model.requests).toHaveLength(0);
      // The session is still usable.
      expect((await session.chat("hi")).ok).toBe(true);
    },
  );

  it("a mistyped mode suggests the right one", async () => {
    const { options } = scriptedOptions();
    const session = okValue(await createAgentSession(options));
    const result = await session.chat("hi", { mode: "followup" } as never);
    expect(!result.ok && result.error.message).toContain('did you mean "followUp"');
  });
});

describe("prompt", () => {
  it("resolves with an error result for a run that fails", async () => {
    const { options } = scriptedOptions([{ fault: { type: "http", status: 500 } }]);
    const result = await prompt("hi", options);
    expect(result).toMatchObject({ type: "result", subtype: "error", isError: true });
    expect(result.error).toMatchObject({ _tag: "ProviderError" });
  });

  it("resolves with the ConfigError result when the key is missing, sending nothing", async () => {
    const result = await prompt("hi", { model: MODEL } as SessionOptions);
    expect(result.subtype).toBe("error");
    expect(result.error).toMatchObject({ _tag: "ConfigError", path: "apiKey" });
  });

  it("never rejects: invalid options are an error result with the ConfigError", async () => {
    const { options } = scriptedOptions();
    for (const bad of [
      undefined,
      { ...options, baseUrl: "http://127.0.0.1:9" },
      { ...options, temperature: 9 },
    ]) {
      const error = await rejection((o) => prompt("hi", o), bad);
      expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
    }
  });

  it("runs tools from a session created with tools", async () => {
    const { options } = scriptedOptions([
      { content: [{ type: "tool_call", name: "double", args: { n: 2 } }] },
      says("4"),
    ]);
    const double = defineTool({
      name: "double",
      description: "Doubles",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      execute: (args) => String(Number(args.n) * 2),
    });
    const result = await prompt("double 2", { ...options, tools: [double] });
    expect(result).toMatchObject({ subtype: "success", text: "4", turns: 2 });
  });
});
