/**
 * What streamTurn says about a bad request or bad options, word for word where the words are the help
 * (issue 41's src/stream survivors: checks whose message or boundary no test read). Each case is a
 * CONFIG_INVALID with its path; none reaches the network.
 */
import { describe, expect, it } from "vitest";
import { type ModelRequest, streamTurn, type TurnOptions } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { HELLO } from "../support/replay.ts";

const model = createScriptedModel({ script: [] });
const BASE = { model: "openai/gpt-5", apiKey: "k", fetch: model.fetch } satisfies TurnOptions;

/** The error of a turn with `request` fields and `options` added to a valid base. */
async function problem(request: Record<string, unknown>, options: Record<string, unknown> = {}) {
  const turn = streamTurn(
    { messages: [HELLO], ...request } as unknown as ModelRequest,
    {
      ...BASE,
      ...options,
    } as TurnOptions,
  );
  const { error } = await turn.message;
  expect(error?.code).toBe("CONFIG_INVALID");
  return error as { message: string; path?: string };
}

describe("the request's fields", () => {
  it.each([["yes"], [null], [[]], [3]])("cache %j must be false or an object", async (cache) => {
    const error = await problem({ cache });
    expect(error.message).toMatch(/^cache must be false or \{ ttl\?, key\?, retention\? \}, got /);
    expect(error.path).toBe("cache");
  });

  it.each([
    [{ name: "bad name", schema: {} }],
    [{ name: "name!", schema: {} }],
    [{ name: "x".repeat(65), schema: {} }],
    [{ name: "ok", schema: "{}" }],
    [{ name: "ok", schema: null }],
    ["answer"],
  ])("output %j must be { name, schema }", async (output) => {
    const error = await problem({ output });
    expect(error.message).toMatch(/^output must be \{ name, schema \} \(a JSON Schema object\), got /);
    expect(error.path).toBe("output");
  });

  it("a valid output passes: a name of word characters and dashes up to 64, and a schema object", async () => {
    const turn = streamTurn(
      { messages: [HELLO], output: { name: `a-${"b".repeat(62)}`, schema: { type: "object" } } },
      {
        model: "openai/gpt-5",
        apiKey: "k",
        fetch: createScriptedModel({ script: [{ content: [{ type: "text", text: "{}" }] }] }).fetch,
      },
    );
    expect((await turn.message).error).toBeUndefined();
  });

  it("tools must be an array of specs, each with a name, a description and a schema object", async () => {
    expect((await problem({ tools: "search" })).message).toMatch(
      /^tools must be an array of tool specs, got /,
    );
    const spec = await problem({ tools: [{ name: "a", description: "d", inputSchema: "s" }] });
    expect(spec.message).toBe("tools[0] must be { name, description, inputSchema } (a JSON Schema object)");
    expect(spec.path).toBe("tools.0");
  });

  it("messages must be an array, said plainly before anything else", async () => {
    const error = await problem({ messages: "hi" });
    expect(error.message).toBe("messages must be an array of messages");
    expect(error.path).toBe("messages");
  });

  it("an unknown request field is named as a request field", async () => {
    expect((await problem({ temprature: 1 })).message).toContain("request field");
  });
});

describe("the options", () => {
  it("baseURL: http(s) or a same-origin path; a scheme left out gets a hint; protocol-relative is refused", async () => {
    expect((await problem({}, { baseURL: "localhost:11434/v1" })).message).toBe(
      'baseURL must be an http(s) URL such as "http://localhost:11434/v1", got "localhost:11434/v1" — did you mean "http://localhost:11434/v1"?',
    );
    expect((await problem({}, { baseURL: "ftp://files.example/v1" })).message).toBe(
      'baseURL must be an http(s) URL such as "http://localhost:11434/v1", got "ftp://files.example/v1"',
    );
    expect((await problem({}, { baseURL: "//evil.example/v1" })).path).toBe("baseURL");
    expect((await problem({}, { baseURL: "my proxy:8080" })).message).not.toContain("did you mean");
  });

  it("headers' values must be strings, and the message shows the type, not the value", async () => {
    const error = await problem({}, { headers: { "x-api-key": 12345678 } });
    expect(error.message).toBe('headers["x-api-key"] must be a string, got number');
    expect(error.path).toBe("headers.x-api-key");
  });

  it.each([
    ["", "an empty string"],
    ["   ", "string"],
    [5, "number"],
  ])("model %j is refused, saying what came (%s)", async (value, what) => {
    const error = await problem({}, { model: value });
    expect(error.message).toBe(
      `model is required: a string such as "anthropic/claude-sonnet-4-5" or "openai/gpt-5", got ${what}`,
    );
    expect(error.path).toBe("model");
  });

  it("retry.maxRetries must be a whole number", async () => {
    const error = await problem({}, { retry: { maxRetries: 1.5 } });
    expect(error.message).toBe("retry.maxRetries must be a whole number, got 1.5");
  });

  it("an empty apiKey is a missing one (for the provider's public endpoint)", async () => {
    const turn = streamTurn({ messages: [HELLO] }, { model: "openai/gpt-5", apiKey: "" });
    const { error } = await turn.message;
    expect(error?.code).toBe("CONFIG_INVALID");
    expect(error?.message).toMatch(/^apiKey is missing for openai/);
  });

  it("thinking lists the levels, and adds a guess only when there is one", async () => {
    const none = await problem({ thinking: "zzzzzz" });
    expect(none.message).toMatch(/^thinking must be one of \w+, \w+, .*, got "zzzzzz"$/);
    expect((await problem({ thinking: "hgh" })).message).toMatch(/ — did you mean "high"\?$/);
  });

  it("temperature takes both ends of the provider's range", async () => {
    for (const temperature of [0, 2]) {
      const turn = streamTurn(
        { messages: [HELLO], temperature },
        {
          ...BASE,
          fetch: createScriptedModel({ script: [{ content: [{ type: "text", text: "ok" }] }] }).fetch,
        },
      );
      expect((await turn.message).error).toBeUndefined();
    }
    expect((await problem({ temperature: 2.01 })).message).toBe(
      "temperature for openai-chat must be a number from 0 to 2, got 2.01",
    );
  });
});
