/**
 * "Never throws" holds for any input, from TypeScript or plain JavaScript: a bad prompt, model,
 * provider, thinking level, temperature, maxTokens, an unknown option key, a missing API key, a
 * crafted restore — each is a ConfigError with `path`, returned as a Result (or a rejected
 * create call), and nothing is sent.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  AGENT_CONFIG_OPTIONS,
  AGENT_OPTIONS,
  BUDGET_OPTIONS,
  HOOK_ENTRY_OPTIONS,
  HOOKS_OPTIONS,
} from "../../src/agent/agent-option-table.ts";
import type { Budget } from "../../src/agent/budget.ts";
import type { HookEntry } from "../../src/agent/hooks.ts";
import { CONNECT_OPTIONS, SERVE_OPTIONS } from "../../src/bridge/bridge-options.ts";
import { COMPACTION_OPTIONS } from "../../src/compaction/compaction-options.ts";
import {
  checkOptions,
  type OptionRule,
  type OptionTable,
  optionKeys,
} from "../../src/config/option-table.ts";
import {
  type AgentOptions,
  createAgentSession,
  createSession,
  isSdkError,
  runAgent,
  runAgentStream,
  streamTurn,
  uncheckedModel,
} from "../../src/index.ts";
import { CONNECT_MCP_OPTIONS } from "../../src/mcp/mcp-options.ts";
import { CREATE_SESSION_OPTIONS, type CreateSessionOptions } from "../../src/session/create-session.ts";
import {
  CHAT_OPTIONS,
  RESUME_OPTIONS,
  SESSION_OPTIONS,
  type SessionOptions,
} from "../../src/session/session-options.ts";
import { MODEL_REQUEST_FIELDS } from "../../src/stream/check-turn-request.ts";
import { COMPAT_OPTIONS, CONNECTION_OPTIONS, RETRY_OPTIONS } from "../../src/stream/connection-options.ts";
import { TURN_OPTIONS, type TurnOptions } from "../../src/stream/turn-options.ts";
import type { ModelRequest } from "../../src/types.ts";
import { says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Runs `options` (cast: these are what plain JavaScript can pass) and returns the ConfigError. */
async function configError(options: unknown, requestsSent = 0) {
  const { model, options: base } = scripted([says("hi")]);
  const merged =
    typeof options === "object" && options !== null && !Array.isArray(options)
      ? { ...base(), ...options }
      : options;
  let result: Awaited<ReturnType<typeof runAgent>> | undefined;
  expect(() => {
    result = undefined;
    void runAgent(merged as AgentOptions).then((value) => {
      result = value;
    });
  }).not.toThrow();
  await vi.waitFor(() => expect(result).toBeDefined());
  expect(model.requests).toHaveLength(requestsSent);
  if (result === undefined || result.ok) throw new Error("expected a failed run");
  expect(result.error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
  expect(isSdkError(result.error)).toBe(true);
  expect(result.partial.stopReason).toBe("error");
  return result.error;
}

describe("runAgent never throws", () => {
  it.each([
    ["no prompt", { prompt: undefined }, "prompt"],
    ["messages that are a number", { messages: 5 }, "messages"],
    ["messages that are a string", { messages: "ab" }, "messages"],
    ["a number as prompt", { prompt: 42 }, "prompt"],
    ["an object as prompt", { prompt: { text: "hi" } }, "prompt"],
    ["a part without text", { prompt: [{ type: "text" }] }, "prompt.0.text"],
    ["a part of an unknown type", { prompt: [{ type: "audio" }] }, "prompt.0.type"],
    ["attachments that are not an array", { attachments: "x.png" }, "attachments"],
    ["model undefined", { model: undefined }, "model"],
    ["a number as model", { model: 7 }, "model"],
    ["an empty model", { model: "" }, "model"],
    ["an unknown provider prefix", { model: "mystery/model-1" }, "provider"],
    ["thinking that is no level", { thinking: "extreme" }, "thinking"],
    ["temperature above Anthropic's 1", { temperature: 1.5 }, "temperature"],
    ["temperature below 0", { temperature: -3 }, "temperature"],
    ["temperature NaN", { temperature: Number.NaN }, "temperature"],
    ["temperature as a string", { temperature: "0.5" }, "temperature"],
    ["maxTokens 0", { maxTokens: 0 }, "maxTokens"],
    ["maxTokens -1", { maxTokens: -1 }, "maxTokens"],
    ["maxTokens 0.5", { maxTokens: 0.5 }, "maxTokens"],
    ["maxTokens as a string", { maxTokens: "100" }, "maxTokens"],
  ])("%s is a ConfigError at %s, and nothing is sent", async (_name, options, path) => {
    expect((await configError(options)).path).toBe(path);
  });

  it.each([undefined, null, "hello", 42, []])(
    "options of %j are a ConfigError, not a TypeError",
    async (options) => {
      const result = await runAgent(options as never);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
    },
  );

  it("a number given as a string is shown quoted, so it does not read as a valid value refused", async () => {
    expect((await configError({ temperature: "0.5" })).message).toBe(
      'temperature for anthropic must be a number from 0 to 1, got "0.5"',
    );
    expect((await configError({ maxTokens: "100" })).message).toBe(
      'maxTokens must be a positive integer, got "100"',
    );
  });

  it("a thinking level in the wrong case suggests the right one", async () => {
    expect((await configError({ thinking: "Medium" })).message).toContain('did you mean "medium"');
  });

  it("temperature 1.5 is refused for Anthropic but sent to OpenAI (whose range is 0–2)", async () => {
    await configError({ temperature: 1.5 });
    const { model, options } = scripted([says("hi")], "openai/gpt-5");
    const result = await runAgent(options({ temperature: 1.5 }));
    expect(result.ok).toBe(true);
    expect(model.requests[0]?.body).toMatchObject({ temperature: 1.5 });
    expect((await runAgent(options({ temperature: 2.5 }))).ok).toBe(false);
  });
});

describe("unknown option keys", () => {
  it.each([
    ["systemPromt", "systemPrompt"],
    ["baseUrl", "baseURL"],
    ["max_tokens", "maxTokens"],
    ["apikey", "apiKey"],
    ["temprature", "temperature"],
  ])("%s is refused with 'did you mean %s'", async (key, meant) => {
    const error = await configError({ [key]: "x" });
    expect(error.path).toBe(key);
    expect(error.message).toContain(`did you mean "${meant}"`);
  });

  it("a key like no option at all lists the known ones", async () => {
    const error = await configError({ zzzzzz: 1 });
    expect(error.message).toContain("known options: model, provider, apiKey");
  });

  it("runAgentStream ends with the same ConfigError as its only failure", async () => {
    const { options } = scripted([says("hi")]);
    const run = runAgentStream({ ...options(), baseUrl: "http://127.0.0.1:9" } as AgentOptions);
    const events = [];
    for await (const event of run) events.push(event.type);
    const result = await run.result;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.path).toBe("baseUrl");
    expect(events).toEqual(["run-end"]);
  });

  it("streamTurn never throws: its message carries the ConfigError", async () => {
    for (const [request, options, path] of [
      [{ messages: [] }, { model: "anthropic/x", apiKey: "k", baseUrl: "http://127.0.0.1:9" }, "baseUrl"],
      [{ messages: [] }, undefined, ""],
      [undefined, { model: "anthropic/x", apiKey: "k" }, ""],
      [{ messages: "hi" }, { model: "anthropic/x", apiKey: "k" }, "messages"],
      [{ messages: [], thinking: "max" }, { model: "anthropic/x", apiKey: "k" }, "thinking"],
    ] as const) {
      const turn = streamTurn(request as never, options as never);
      const message = await turn.message;
      expect(message.stopReason).toBe("error");
      expect(message.error).toMatchObject({ _tag: "ConfigError", path });
    }
  });

  it("sessions refuse unknown keys too: createAgentSession and createSession reject with the ConfigError", async () => {
    const base = { model: "anthropic/claude-sonnet-4-5", apiKey: "k" };
    expect(failure(await createAgentSession({ ...base, systemPromt: "x" } as never))).toMatchObject({
      _tag: "ConfigError",
      path: "systemPromt",
    });
    expect(failure(await createSession({ ...base, prompt: "hi" } as never))).toMatchObject({
      _tag: "ConfigError",
      path: "prompt",
    });
    expect(failure(await createSession({ ...base, canUseTool: "yes" } as never))).toMatchObject({
      path: "canUseTool",
    });
  });
});

describe("a missing apiKey", () => {
  it("for a public endpoint is a ConfigError naming apiKey and the usual variable, before any request", async () => {
    const global = vi.fn(async () => new Response("no"));
    vi.stubGlobal("fetch", global);
    for (const [model, variable] of [
      ["anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
      ["openai/gpt-5", "OPENAI_API_KEY"],
      ["openai-responses/gpt-5", "OPENAI_API_KEY"],
      ["google/gemini-2.5-flash", "GEMINI_API_KEY"],
    ]) {
      const result = await runAgent({ model: model as "anthropic/x", prompt: "hi" });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error).toMatchObject({ _tag: "ConfigError", path: "apiKey" });
        expect(result.error.message).toContain(variable);
      }
    }
    expect(global).not.toHaveBeenCalled();
  });

  it("is fine with a baseURL (a local server), credential headers, or a custom fetch", async () => {
    const { model } = scripted([says("a"), says("b"), says("c")]);
    vi.stubGlobal("fetch", model.fetch);
    const viaBaseURL = await runAgent({
      model: "openai/llama3",
      baseURL: "http://127.0.0.1:11434/v1",
      prompt: "hi",
    });
    const viaHeader = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      headers: { "X-Api-Key": "k" },
      prompt: "hi",
    });
    vi.unstubAllGlobals();
    const viaFetch = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      fetch: model.fetch,
      prompt: "hi",
    });
    expect([viaBaseURL.ok, viaHeader.ok, viaFetch.ok]).toEqual([true, true, true]);
    expect(model.requests).toHaveLength(3);
  });
});

describe("sessions: one rule, both async, bad input resolves to a failed Result with a ConfigError", () => {
  const base = { model: "anthropic/claude-sonnet-4-5" as const, apiKey: "k" };

  it("createAgentSession and createSession both return promises", () => {
    const agent = createAgentSession(base);
    const messages = createSession(base);
    expect(agent).toBeInstanceOf(Promise);
    expect(messages).toBeInstanceOf(Promise);
    return Promise.all([agent, messages]);
  });

  it.each([
    ["null", null],
    ["a crafted version 0 whose model has no toString", { version: 0, model: { toString: null } }],
    ["a string", "state"],
    ["a state from a newer Wisp", { version: 99 }],
  ])("a restore of %s is a ConfigError, never a TypeError", async (_name, restore) => {
    for (const create of [createAgentSession, createSession]) {
      const error = failure(await create({ ...base, restore }));
      expect(isSdkError(error)).toBe(true);
      expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
    }
  });

  it("session.chat with a bad prompt is a ConfigError result", async () => {
    const session = okValue(await createAgentSession(base));
    for (const input of [undefined, 42, [{ type: "video" }]]) {
      const result = await session.chat(input as never);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ _tag: "ConfigError" });
    }
    expect(session.export().messages).toEqual([]);
  });
});

describe("options of the wrong type, from plain JavaScript", () => {
  const wrongTypes: Array<[string, Record<string, unknown>, string]> = [
    ["tools that are not an array", { tools: "calculator" }, "tools"],
    ["a tool that is null", { tools: [null] }, "tools.0"],
    ["a signal that is no AbortSignal", { signal: "stop" }, "signal"],
    ["a fetch that is no function", { fetch: "https://proxy" }, "fetch"],
    ["a number as baseURL", { baseURL: 11434 }, "baseURL"],
    ["a baseURL without its scheme", { baseURL: "localhost:11434/v1" }, "baseURL"],
    ["headers as a string", { headers: "x-api-key: k" }, "headers"],
    ["a header that is no string", { headers: { "x-trace": 5 } }, "headers.x-trace"],
    ["a number as apiKey", { apiKey: 12345 }, "apiKey"],
    ["a number as systemPrompt", { systemPrompt: 5 }, "systemPrompt"],
    ["stopSequences as a string", { stopSequences: "END" }, "stopSequences"],
    ["an unknown toolExecution", { toolExecution: "paralel" }, "toolExecution"],
    ["retry as a number", { retry: 3 }, "retry"],
    ["a mistyped retry option", { retry: { maxRetrys: 1 } }, "retry.maxRetrys"],
    ["a negative timeoutMs", { timeoutMs: -1 }, "timeoutMs"],
    ["idleTimeoutMs as a string", { idleTimeoutMs: "60s" }, "idleTimeoutMs"],
    ["hooks as a function", { hooks: () => {} }, "hooks"],
    ["a hook under a misspelt event", { hooks: { preTooluse: () => {} } }, "hooks.preTooluse"],
    ["a hook that is no function", { hooks: { stop: 5 } }, "hooks.stop"],
    ["a hook entry without a handler", { hooks: { stop: [{ name: "x" }] } }, "hooks.stop.0.handler"],
    ["a mistyped budget key", { budget: { maxCost: 1 } }, "budget.maxCost"],
    ["compat.includeUsage as a string", { compat: { includeUsage: "yes" } }, "compat.includeUsage"],
    ["a number as sessionId", { sessionId: 7 }, "sessionId"],
    ["maxTurns as a string", { maxTurns: "3" }, "maxTurns"],
  ];

  it.each(wrongTypes)(
    "%s is a ConfigError at %s from runAgent, and nothing is sent",
    async (_name, options, path) => {
      expect((await configError(options)).path).toBe(path);
    },
  );

  it.each(wrongTypes)(
    "%s is the same ConfigError from runAgentStream's result",
    async (_name, extra, path) => {
      const { model, options } = scripted([says("hi")]);
      let run: ReturnType<typeof runAgentStream> | undefined;
      expect(() => {
        run = runAgentStream({ ...options(), ...extra } as AgentOptions);
      }).not.toThrow();
      const result = await (run as ReturnType<typeof runAgentStream>).result;
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
      expect(model.requests).toHaveLength(0);
    },
  );

  it("a mistyped nested key suggests the key meant", async () => {
    expect((await configError({ retry: { maxRetrys: 1 } })).message).toContain('did you mean "maxRetries"');
    expect((await configError({ budget: { maxCost: 1 } })).message).toContain('did you mean "maxCostUsd"');
    expect((await configError({ hooks: { preTooluse: () => {} } })).message).toContain(
      'did you mean "preToolUse"',
    );
    expect((await configError({ baseURL: "localhost:11434/v1" })).message).toContain(
      'did you mean "http://localhost:11434/v1"',
    );
  });

  it("a header's value is never shown in the message (it may be a credential)", async () => {
    const error = await configError({ headers: { authorization: ["Bearer sk-secret"] } });
    expect(error.path).toBe("headers.authorization");
    expect(error.message).not.toContain("sk-secret");
  });

  it("a baseURL that is a path on the page's own origin is sent as it is (a same-origin proxy)", async () => {
    const { model, options } = scripted([says("hi")]);
    const seen: string[] = [];
    const result = await runAgent(
      options({
        baseURL: "/api/anthropic",
        fetch: (input, init) => {
          seen.push(String(input));
          return model.fetch("https://api.anthropic.com/v1/messages", init);
        },
      }),
    );
    expect(result.ok).toBe(true);
    expect(seen).toEqual(["/api/anthropic/v1/messages"]);
  });

  it("streamTurn refuses wrong types and unknown request fields in its message, sending nothing", async () => {
    const fetch = vi.fn(async () => new Response("no"));
    const good = { model: "anthropic/claude-sonnet-4-5" as const, apiKey: "k", fetch };
    for (const [request, options, path] of [
      [{ messages: [] }, { ...good, signal: "stop" }, "signal"],
      [{ messages: [] }, { ...good, onEvent: "log" }, "onEvent"],
      [{ messages: [] }, { ...good, retry: { maxRetrys: 1 } }, "retry.maxRetrys"],
      [{ messages: [] }, { ...good, baseURL: 5 }, "baseURL"],
      [{ messages: [], systemPromt: "Be brief" }, good, "systemPromt"],
      [{ messages: [], max_tokens: 100 }, good, "max_tokens"],
      [{ messages: [], tools: [{ name: "x" }] }, good, "tools.0"],
      [{ messages: [], stopSequences: "END" }, good, "stopSequences"],
      [{ messages: [], temperature: 1.5 }, good, "temperature"],
      [{ messages: [], maxTokens: 0 }, good, "maxTokens"],
      [{ messages: [] }, { ...good, model: undefined }, "model"],
      [{ messages: [] }, { ...good, model: uncheckedModel("mystery/model-1") }, "provider"],
    ] as const) {
      let turn: ReturnType<typeof streamTurn> | undefined;
      expect(() => {
        turn = streamTurn(request as never, options as never);
      }).not.toThrow();
      const message = await (turn as ReturnType<typeof streamTurn>).message;
      expect(message.stopReason).toBe("error");
      expect(message.error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
    }
    const misspelt = await streamTurn({ messages: [], systemPromt: "x" } as never, good).message;
    expect(misspelt.error?.message).toContain('did you mean "systemPrompt"');
    const snake = await streamTurn({ messages: [], max_tokens: 1 } as never, good).message;
    expect(snake.error?.message).toContain('did you mean "maxTokens"');
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("temperature is checked against each provider's own range", () => {
  it.each([
    ["anthropic/claude-sonnet-4-5", 1],
    ["openai/gpt-5", 2],
    ["openai-responses/gpt-5", 2],
    ["google/gemini-2.5-flash", 2],
  ])("%s: %d is sent, a little more is a ConfigError before any request", async (name, highest) => {
    const { model, options } = scripted([says("hi")], name);
    const sent = await runAgent(options({ temperature: highest }));
    expect(sent.ok).toBe(true);
    expect(JSON.stringify(model.requests[0]?.body)).toContain(`"temperature":${highest}`);
    const refused = await runAgent(options({ temperature: highest + 0.01 }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ _tag: "ConfigError", path: "temperature" });
    expect(model.requests).toHaveLength(1);
  });

  it("Anthropic with thinking on refuses a temperature other than 1, as a Result, before any request", async () => {
    const { model, options } = scripted([says("hi")]);
    const result = await runAgent(options({ thinking: "low", temperature: 0.5 }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ _tag: "ConfigError", path: "temperature" });
    expect(model.requests).toHaveLength(0);
  });
});

describe("the model is checked first, as before the option tables (from the review)", () => {
  it("a missing model is what runAgent, streamTurn and createAgentSession say, whatever else is wrong", async () => {
    const result = await runAgent({ prompt: "hi", retry: 5 } as never);
    expect(!result.ok && result.error).toMatchObject({ code: "CONFIG_INVALID", path: "model" });
    const message = await streamTurn({ messages: [] }, { retry: 5 } as never).message;
    expect(message.error).toMatchObject({ code: "CONFIG_INVALID", path: "model" });
    expect(failure(await createAgentSession({ model: null, retry: 5 } as never))).toMatchObject({
      path: "model",
    });
  });

  it("a thinking level that cannot be printed as JSON (a BigInt) is a ConfigError, not a TypeError", async () => {
    const error = await configError({ thinking: 10n });
    expect(error).toMatchObject({ path: "thinking" });
    expect(error.message).toContain("got 10");
  });
});

describe("timeouts given as text are ConfigErrors, not calls that fail at once", () => {
  it("a tool's timeoutMs", async () => {
    const tool = {
      name: "slow",
      description: "d",
      inputSchema: { type: "object" },
      execute: () => "ok",
      timeoutMs: "5s",
    };
    const error = await configError({ tools: [tool] });
    expect(error).toMatchObject({ path: "tools.0.timeoutMs" });
    expect(error.message).toBe('tools.0.timeoutMs must be a number of milliseconds ≥ 0, got "5s"');
  });

  it("a hook entry's timeoutMs", async () => {
    const error = await configError({ hooks: { preToolUse: [{ handler: () => ({}), timeoutMs: "5s" }] } });
    expect(error).toMatchObject({ path: "hooks.preToolUse.0.timeoutMs" });
    expect(error.message).toBe('hooks.preToolUse.0.timeoutMs must be a number of milliseconds ≥ 0, got "5s"');
  });
});

describe("the option tables", () => {
  const tables: Array<[string, OptionTable<Record<string, unknown>>]> = [
    ["runAgent", AGENT_OPTIONS],
    ["agent config", AGENT_CONFIG_OPTIONS],
    ["streamTurn", TURN_OPTIONS],
    ["connection", CONNECTION_OPTIONS],
    ["createAgentSession", SESSION_OPTIONS],
    ["createSession", CREATE_SESSION_OPTIONS],
    ["chat", CHAT_OPTIONS],
    ["request", MODEL_REQUEST_FIELDS],
    ["retry", RETRY_OPTIONS],
    ["compat", COMPAT_OPTIONS],
    ["budget", BUDGET_OPTIONS],
    ["hook entry", HOOK_ENTRY_OPTIONS],
    ["hooks", HOOKS_OPTIONS],
    ["compaction", COMPACTION_OPTIONS],
    ["connectMcp", CONNECT_MCP_OPTIONS],
    ["connectSession", CONNECT_OPTIONS],
    ["serveSession", SERVE_OPTIONS],
    ["resume", RESUME_OPTIONS],
  ];

  it("list exactly the keys of their interfaces (a missing or extra key fails to compile)", () => {
    expectTypeOf<keyof typeof AGENT_OPTIONS>().toEqualTypeOf<keyof AgentOptions>();
    expectTypeOf<keyof typeof SESSION_OPTIONS>().toEqualTypeOf<keyof SessionOptions>();
    expectTypeOf<keyof typeof CREATE_SESSION_OPTIONS>().toEqualTypeOf<keyof CreateSessionOptions>();
    expectTypeOf<keyof typeof TURN_OPTIONS>().toEqualTypeOf<keyof TurnOptions>();
    expectTypeOf<keyof typeof MODEL_REQUEST_FIELDS>().toEqualTypeOf<keyof ModelRequest>();
    expectTypeOf<keyof typeof BUDGET_OPTIONS>().toEqualTypeOf<keyof Budget | "maxTurns">();
    expectTypeOf<keyof typeof HOOK_ENTRY_OPTIONS>().toEqualTypeOf<keyof HookEntry<"stop">>();
    expect(optionKeys(AGENT_OPTIONS)).toEqual(expect.arrayContaining(optionKeys(AGENT_CONFIG_OPTIONS)));
    expect(optionKeys(SESSION_OPTIONS)).toEqual(expect.arrayContaining(optionKeys(AGENT_CONFIG_OPTIONS)));
  });

  it.each(tables)(
    "%s: each checked option refuses a value of no type it takes, at its own path",
    (_name, table) => {
      for (const [key, rule] of Object.entries(table) as Array<[string, OptionRule]>) {
        if (rule === null || (typeof rule === "object" && rule.check === undefined)) continue;
        // The one rule alone, so a required option elsewhere in the table does not answer first.
        const alone = { [key]: rule } as OptionTable<Record<string, unknown>>;
        const problem = checkOptions(alone, { [key]: Symbol("wrong") });
        expect(problem, key).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
        expect(problem?.path?.startsWith(key), `${key}: ${problem?.path}`).toBe(true);
      }
    },
  );

  it.each(tables)("%s: a key one letter off is refused, naming the key it meant", (_name, table) => {
    for (const key of optionKeys(table)) {
      const typo = `${key}x`;
      const problem = checkOptions(table, { [typo]: 1 });
      expect(problem?.path, key).toBe(typo);
      expect(problem?.message, key).toContain(`did you mean "${key}"?`);
    }
  });
});
