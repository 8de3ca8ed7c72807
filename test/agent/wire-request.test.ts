/**
 * Every model parameter of a run reaches the wire request in each provider's own form. The
 * assertions read the request the scripted model received.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runAgent, type ThinkingLevel } from "../../src/index.ts";
import { requestBody, says, scripted } from "../support/agent.ts";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up",
  input: z.object({ word: z.string() }),
  execute: () => "",
});
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PARAMETERS = {
  systemPrompt: "You are terse.",
  maxTokens: 1000,
  temperature: 0.2,
  stopSequences: ["END"],
  tools: [lookup],
  prompt: "Describe these.",
  attachments: [
    { type: "image" as const, data: PIXEL, mimeType: "image/png" },
    { type: "image" as const, url: "https://example.com/cat.jpg" },
  ],
};
const LOOKUP_SCHEMA = {
  type: "object",
  properties: { word: { type: "string" } },
  required: ["word"],
};

describe("the Anthropic request", () => {
  it("carries system, max_tokens, temperature, stop sequences, tools and images", async () => {
    const { model, options } = scripted([says("ok")]);
    await runAgent(options(PARAMETERS));
    const body = requestBody(model);
    // Prompt caching is on: the tools, the system prompt and the conversation's end are marked.
    const mark = { type: "ephemeral" };
    expect(body).toMatchObject({
      model: "claude-sonnet-4-5",
      system: [{ type: "text", text: "You are terse.", cache_control: mark }],
      max_tokens: 1000,
      temperature: 0.2,
      stop_sequences: ["END"],
      stream: true,
      tools: [
        { name: "lookup", description: "Looks a word up", input_schema: LOOKUP_SCHEMA, cache_control: mark },
      ],
    });
    expect(body.thinking).toBeUndefined();
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Describe these." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
          { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" }, cache_control: mark },
        ],
      },
    ]);
  });

  it.each([
    ["minimal", 1024],
    ["low", 4096],
    ["medium", 10_240],
    ["high", 24_576],
  ] as const)("thinking %s is a %i-token budget on top of maxTokens", async (thinking, budget) => {
    const { model, options } = scripted([says("ok")]);
    await runAgent(options({ thinking, maxTokens: 1000 }));
    expect(requestBody(model)).toMatchObject({
      max_tokens: 1000 + budget,
      thinking: { type: "enabled", budget_tokens: budget },
    });
  });

  it.each([
    ["minimal", "low", 1024],
    ["low", "low", 4096],
    ["medium", "medium", 10_240],
    ["high", "high", 24_576],
  ] as const)(
    "on Claude 4.6 and later, thinking %s is adaptive thinking at effort %s",
    async (thinking, effort, headroom) => {
      const { model, options } = scripted([says("ok")], "anthropic/claude-sonnet-5-5");
      await runAgent(options({ thinking, maxTokens: 1000 }));
      const body = requestBody(model);
      expect(body).toMatchObject({
        max_tokens: 1000 + headroom,
        thinking: { type: "adaptive" },
        output_config: { effort },
      });
    },
  );

  it.each([
    ["claude-opus-4-6", { thinking: { type: "disabled" } }],
    ["claude-haiku-5-5", { thinking: { type: "disabled" } }],
    ["claude-fable-5-1", {}],
    ["claude-sonnet-4-5-20250929", {}],
  ])("thinking off on %s sends %j", async (id, fields) => {
    const { model, options } = scripted([says("ok")], `anthropic/${id}`);
    await runAgent(options({ thinking: "off" }));
    const { thinking, output_config } = requestBody(model);
    expect(JSON.parse(JSON.stringify({ thinking, output_config }))).toEqual(fields);
  });

  it("no thinking option sends no thinking fields, leaving the model's default", async () => {
    const { model, options } = scripted([says("ok")], "anthropic/claude-sonnet-5-5");
    await runAgent(options());
    expect(requestBody(model)).not.toHaveProperty("thinking");
    expect(requestBody(model)).not.toHaveProperty("output_config");
  });

  it("temperature other than 1 with thinking is a ConfigError, not a provider 400", async () => {
    const { model, options } = scripted([says("never")]);
    const result = await runAgent(options({ thinking: "low", temperature: 0.5 }));
    expect(!result.ok && result.error).toMatchObject({ _tag: "ConfigError", path: "temperature" });
    expect(model.requests).toHaveLength(0);
  });
});

describe("the OpenAI Chat Completions request", () => {
  it("carries the system message, the token limit, temperature, stop, tools and images", async () => {
    const { model, options } = scripted([says("ok")], "openai/gpt-4o");
    await runAgent(options(PARAMETERS));
    const body = requestBody(model);
    expect(body).toMatchObject({
      model: "gpt-4o",
      max_completion_tokens: 1000,
      temperature: 0.2,
      stop: ["END"],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: "function",
          function: { name: "lookup", description: "Looks a word up", parameters: LOOKUP_SCHEMA },
        },
      ],
    });
    expect(body.reasoning_effort).toBeUndefined();
    expect(body.messages).toEqual([
      { role: "system", content: "You are terse." },
      {
        role: "user",
        content: [
          { type: "text", text: "Describe these." },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
        ],
      },
    ]);
  });

  it.each(["minimal", "low", "medium", "high"] as const)(
    "thinking %s is reasoning_effort %s",
    async (thinking) => {
      const { model, options } = scripted([says("ok")], "openai/o4-mini");
      await runAgent(options({ thinking }));
      expect(requestBody(model).reasoning_effort).toBe(thinking);
    },
  );

  it("thinking off sends no reasoning field; compatible servers get max_tokens", async () => {
    const { model, options } = scripted([says("ok")], "openai/llama3");
    await runAgent(
      options({
        thinking: "off" satisfies ThinkingLevel,
        maxTokens: 64,
        baseURL: "http://127.0.0.1:11434/v1",
      }),
    );
    const body = requestBody(model);
    expect(body.reasoning_effort).toBeUndefined();
    expect(body.max_tokens).toBe(64);
    expect(body.max_completion_tokens).toBeUndefined();
  });
});

describe("the OpenAI Responses request", () => {
  it("carries instructions, max_output_tokens, temperature, tools and images, statelessly", async () => {
    const { model, options } = scripted([says("ok")], "openai-responses/gpt-5");
    const { stopSequences: _, ...parameters } = PARAMETERS;
    await runAgent(options(parameters));
    const body = requestBody(model);
    expect(body).toEqual({
      model: "gpt-5",
      instructions: "You are terse.",
      max_output_tokens: 1000,
      temperature: 0.2,
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      // The run's session id: a session's requests reach the same cache.
      prompt_cache_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tools: [
        {
          type: "function",
          name: "lookup",
          description: "Looks a word up",
          parameters: LOOKUP_SCHEMA,
          strict: false,
        },
      ],
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Describe these." },
            { type: "input_image", image_url: `data:image/png;base64,${PIXEL}`, detail: "auto" },
            { type: "input_image", image_url: "https://example.com/cat.jpg", detail: "auto" },
          ],
        },
      ],
    });
  });

  it.each(["minimal", "low", "medium", "high"] as const)(
    "thinking %s is reasoning.effort %s",
    async (thinking) => {
      const { model, options } = scripted([says("ok")], "openai-responses/gpt-5");
      await runAgent(options({ thinking }));
      expect(requestBody(model).reasoning).toEqual({ effort: thinking, summary: "auto" });
    },
  );

  it("thinking off sends no reasoning; stop sequences are a ConfigError before any request", async () => {
    const { model, options } = scripted([says("ok")], "openai-responses/gpt-5");
    await runAgent(options({ thinking: "off" }));
    expect(requestBody(model)).not.toHaveProperty("reasoning");
    const refused = await runAgent(options({ stopSequences: ["END"] }));
    expect(!refused.ok && refused.error).toMatchObject({ _tag: "ConfigError", path: "stopSequences" });
    expect(model.requests).toHaveLength(1);
  });

  it("the tool result goes back as a function_call_output after its function_call", async () => {
    const { model, options } = scripted(
      [
        { content: [{ type: "tool_call", name: "lookup", id: "call_1", args: { word: "wisp" } }] },
        says("ok"),
      ],
      "openai-responses/gpt-5",
    );
    await runAgent(options({ tools: [lookup] }));
    const input = (model.requests[1]?.body as { input: unknown[] } | undefined)?.input ?? [];
    expect(input.slice(1)).toEqual([
      { type: "function_call", call_id: "call_1", name: "lookup", arguments: '{"word":"wisp"}' },
      { type: "function_call_output", call_id: "call_1", output: "" },
    ]);
  });
});

describe("the Gemini request", () => {
  it("carries systemInstruction, generationConfig, tools and images, with the key in a header", async () => {
    const { model, options } = scripted([says("ok")], "google/gemini-2.5-flash");
    await runAgent(options(PARAMETERS));
    const request = model.requests[0];
    expect(request?.url).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    expect(request?.headers["x-goog-api-key"]).toBe("test-key");
    expect(request?.url).not.toContain("test-key");
    expect(requestBody(model)).toEqual({
      systemInstruction: { parts: [{ text: "You are terse." }] },
      generationConfig: { maxOutputTokens: 1000, temperature: 0.2, stopSequences: ["END"] },
      tools: [
        {
          functionDeclarations: [
            { name: "lookup", description: "Looks a word up", parametersJsonSchema: LOOKUP_SCHEMA },
          ],
        },
      ],
      contents: [
        {
          role: "user",
          parts: [
            { text: "Describe these." },
            { inlineData: { mimeType: "image/png", data: PIXEL } },
            { fileData: { fileUri: "https://example.com/cat.jpg", mimeType: "image/png" } },
          ],
        },
      ],
    });
  });

  it.each([
    ["off", { thinkingBudget: 0 }],
    ["minimal", { thinkingBudget: 1024, includeThoughts: true }],
    ["low", { thinkingBudget: 4096, includeThoughts: true }],
    ["medium", { thinkingBudget: 10_240, includeThoughts: true }],
    ["high", { thinkingBudget: 24_576, includeThoughts: true }],
  ] as const)("on Gemini 2.5, thinking %s is %j", async (thinking, config) => {
    const { model, options } = scripted([says("ok")], "google/gemini-2.5-flash");
    await runAgent(options({ thinking }));
    expect(requestBody(model).generationConfig).toEqual({ thinkingConfig: config });
  });

  it.each([
    ["minimal", "low"],
    ["low", "low"],
    ["medium", "high"],
    ["high", "high"],
  ] as const)("on Gemini 3, thinking %s is thinkingLevel %s", async (thinking, level) => {
    const { model, options } = scripted([says("ok")], "gemini/gemini-3-pro-preview");
    await runAgent(options({ thinking }));
    expect(requestBody(model).generationConfig).toEqual({
      thinkingConfig: { thinkingLevel: level, includeThoughts: true },
    });
  });

  it("a tool result is a functionResponse named after its call; an error result says so", async () => {
    const failing = defineTool({
      name: "lookup",
      description: "Looks a word up",
      input: z.object({ word: z.string() }),
      execute: () => {
        throw new Error("dictionary offline");
      },
    });
    const { model, options } = scripted(
      [
        { content: [{ type: "tool_call", name: "lookup", args: { word: "wisp" }, signature: "sig-1" }] },
        says("ok"),
      ],
      "google/gemini-2.5-flash",
    );
    await runAgent(options({ tools: [failing] }));
    const contents = (model.requests[1]?.body as { contents: unknown[] } | undefined)?.contents ?? [];
    expect(contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [{ functionCall: { name: "lookup", args: { word: "wisp" } }, thoughtSignature: "sig-1" }],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "lookup",
              response: { error: expect.stringContaining("dictionary offline") },
            },
          },
        ],
      },
    ]);
  });
});
