/**
 * "Never throws" holds for any input, from TypeScript or plain JavaScript: a bad prompt, model,
 * provider, thinking level, temperature, maxTokens, an unknown option key, a missing API key, a
 * crafted restore — each is a ConfigError with `path`, returned as a Result (or a rejected
 * create call), and nothing is sent.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AgentOptions,
  createAgentSession,
  createSession,
  isSdkError,
  runAgent,
  runAgentStream,
  streamTurn,
} from "../../src/index.ts";
import { says, scripted } from "../support/agent.ts";

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
    await expect(createAgentSession({ ...base, systemPromt: "x" } as never)).rejects.toMatchObject({
      _tag: "ConfigError",
      path: "systemPromt",
    });
    await expect(createSession({ ...base, prompt: "hi" } as never)).rejects.toMatchObject({
      _tag: "ConfigError",
      path: "prompt",
    });
    await expect(createSession({ ...base, canUseTool: "yes" } as never)).rejects.toMatchObject({
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

describe("sessions: one rule, both async, bad input rejects with a ConfigError", () => {
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
  ])("a restore of %s rejects with a ConfigError, never a TypeError", async (_name, restore) => {
    for (const create of [createAgentSession, createSession]) {
      const error = await create({ ...base, restore }).then(
        () => undefined,
        (rejected: unknown) => rejected,
      );
      expect(isSdkError(error)).toBe(true);
      expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
    }
  });

  it("session.chat with a bad prompt is a ConfigError result", async () => {
    const session = await createAgentSession(base);
    for (const input of [undefined, 42, [{ type: "video" }]]) {
      const result = await session.chat(input as never);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ _tag: "ConfigError" });
    }
    expect(session.export().messages).toEqual([]);
  });
});
