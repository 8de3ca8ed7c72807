/**
 * The scripted model gives `respond` each request in Wisp's own terms, the same for every provider:
 * the conversation as Wisp messages, the system prompt, the tools offered, the model, and the tool
 * results the request sends back. A run goes through a tool call and back on each API, answered from
 * `request.toolResults` alone, and the requests read back equal what the run sent. A body that cannot
 * be read still reaches `respond`, with empty fields. Each request builder's output reads back into the
 * conversation it was built from, less what the wire format cannot carry (listed per provider).
 */
import { describe, expect, it } from "vitest";
import { defineTool, type Message, type ModelRequest, runAgent } from "../../src/index.ts";
import { buildAnthropicRequest } from "../../src/providers/anthropic/request.ts";
import { buildGeminiRequest, FOREIGN_CALL_SIGNATURE } from "../../src/providers/google/request.ts";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat/request.ts";
import { buildResponsesRequest } from "../../src/providers/openai-responses/request.ts";
import type { WireRequest } from "../../src/providers/provider.ts";
import {
  createScriptedModel,
  type RecordedRequest,
  type ScriptedTurn,
  type ScriptPart,
} from "../../src/testing/index.ts";

const SYSTEM = "You are a weather assistant.";

const weather = defineTool({
  name: "weather",
  description: "The weather in a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  execute: (args) => `Sunny in ${String(args.city)}`,
});

/** Role and content: what a request carries of a message (ids, timestamps and usage it does not). */
const view = (messages: readonly Message[]) =>
  messages.map((message) => ({ role: message.role, content: message.content }));

/** `messages` with each tool-call id replaced as `ids` says (Gemini sends none; the reader derives them). */
function renamedCalls(messages: readonly Message[], ids: Map<string, string>): Message[] {
  const rename = (id: string) => ids.get(id) ?? id;
  return messages.map((message): Message => {
    if (message.role === "assistant")
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === "tool_call" ? { ...part, id: rename(part.id) } : part,
        ),
      };
    if (message.role === "tool_result")
      return {
        ...message,
        content: message.content.map((part) => ({ ...part, toolCallId: rename(part.toolCallId) })),
      };
    return message;
  });
}

const THINKING: ScriptPart = { type: "thinking", text: "The user wants Oslo.", signature: "sig-1" };

const PROVIDERS = [
  // Chat Completions takes no reasoning back, so its run does not think.
  { provider: "anthropic", model: "claude-sonnet-4-5", opening: [THINKING] },
  { provider: "openai-chat", model: "gpt-4o", opening: [] },
  { provider: "openai-responses", model: "gpt-5", opening: [THINKING] },
  { provider: "google", model: "gemini-2.5-flash", opening: [THINKING] },
] as const;

describe.each(PROVIDERS)("respond on $provider", ({ provider, model, opening }) => {
  it("gets the conversation, the tools, the system prompt and the tool results in Wisp's terms", async () => {
    const seen: { request: RecordedRequest; index: number }[] = [];
    const scripted = createScriptedModel({
      respond: (request, index): ScriptedTurn => {
        seen.push({ request, index });
        // Answered from the tool results alone: no wire format is read.
        const [result] = request.toolResults;
        if (result !== undefined)
          return { content: [{ type: "text", text: `${result.toolName} said: ${result.output}` }] };
        if (index > 0) return { content: [{ type: "text", text: "No tool result came back." }] };
        return {
          content: [
            ...opening,
            { type: "text", text: "Let me look." },
            { type: "tool_call", name: "weather", args: { city: "Oslo" } },
          ],
        };
      },
    });
    const result = await runAgent({
      model: `${provider}/${model}`,
      apiKey: "test-key",
      fetch: scripted.fetch,
      systemPrompt: SYSTEM,
      prompt: "Weather in Oslo?",
      tools: [weather],
      maxTurns: 3,
      retry: { maxRetries: 0 },
    });
    if (!result.ok) throw result.error;
    expect(result.value.text).toBe("weather said: Sunny in Oslo");
    expect(seen.map(({ index }) => index)).toEqual([0, 1]);
    const [first, second] = seen.map(({ request }) => request) as [RecordedRequest, RecordedRequest];
    const messages = result.value.messages;
    expect(messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "assistant",
    ]);

    for (const request of [first, second]) {
      expect(request.provider).toBe(provider);
      expect(request.model).toBe(model);
      expect(request.systemPrompt).toBe(SYSTEM);
      expect(request.tools).toEqual([
        { name: "weather", description: "The weather in a city", inputSchema: weather.inputSchema },
      ]);
    }

    // The first request: the prompt alone, no results.
    expect(view(first.messages)).toEqual(view(messages.slice(0, 1)));
    expect(first.messages.map((message) => message.id)).toEqual(["request-0-0"]);
    expect(first.toolResults).toEqual([]);

    // The second: the prompt, the model's call and the call's result, as the run holds them (Gemini's
    // call ids are the reader's own: Gemini sends none).
    const call = messages[1]?.content.find((part) => part.type === "tool_call");
    const sent =
      provider === "google" && call?.type === "tool_call"
        ? renamedCalls(messages, new Map([[call.id, "gemini-call-0"]]))
        : messages;
    expect(view(second.messages)).toEqual(view(sent.slice(0, 3)));
    expect(second.messages.map((message) => message.id)).toEqual([
      "request-1-0",
      "request-1-1",
      "request-1-2",
    ]);
    expect(second.toolResults).toEqual(sent[2]?.content);
    expect(second.toolResults).toMatchObject([
      { type: "tool_result", toolName: "weather", output: "Sunny in Oslo", isError: false },
    ]);
    const reply = second.messages[1];
    expect(reply?.role === "assistant" && [reply.provider, reply.model, reply.stopReason]).toEqual([
      provider,
      model,
      "toolUse",
    ]);
  });
});

describe("a request that cannot be read", () => {
  const URLS = {
    anthropic: "https://api.anthropic.com/v1/messages",
    "openai-chat": "https://api.openai.com/v1/chat/completions",
    "openai-responses": "https://api.openai.com/v1/responses",
    google: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent",
  } as const;
  const EMPTY = { model: "", messages: [], tools: [], toolResults: [] };

  it.each(Object.entries(URLS))("still reaches respond on %s, with empty fields", async (provider, url) => {
    const seen: RecordedRequest[] = [];
    const scripted = createScriptedModel({
      respond: (request) => {
        seen.push(request);
        return { content: [{ type: "text", text: "ok" }] };
      },
    });
    for (const body of ["this is no JSON {", "[1, 2]", "null", '"text"']) {
      const response = await scripted.fetch(url, { method: "POST", body });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(seen).toHaveLength(4);
    for (const request of seen) {
      expect(request).toMatchObject({ provider, ...EMPTY });
      expect(request.systemPrompt).toBeUndefined();
    }
  });

  it.each(Object.entries(URLS))(
    "reads what it can of a JSON body of the wrong shape on %s",
    async (provider, url) => {
      const seen: RecordedRequest[] = [];
      const scripted = createScriptedModel({
        respond: (request) => {
          seen.push(request);
          return { content: [] };
        },
      });
      const body = {
        model: 7,
        messages: [
          null,
          3,
          { role: "user", content: 5 },
          { role: "assistant", content: [null, { nope: 1 }] },
        ],
        input: [{ type: "function_call", arguments: "{not json" }, 4],
        contents: "nope",
        system: { text: 1 },
        instructions: ["no"],
        tools: [null, { name: 3 }, { type: "function", function: "no" }, { functionDeclarations: [{}] }],
      };
      const response = await scripted.fetch(url, { method: "POST", body: JSON.stringify(body) });
      await response.text();
      expect(seen).toHaveLength(1);
      const [request] = seen as [RecordedRequest];
      expect(request.model).toBe(provider === "google" ? "gemini-2.5-flash" : "");
      expect(request.tools).toEqual([]);
      expect(request.toolResults).toEqual([]);
      expect(request.systemPrompt).toBeUndefined();
      // The one well-formed piece: the Responses call whose arguments are no JSON, kept raw.
      expect(view(request.messages)).toEqual(
        provider === "openai-responses"
          ? [
              {
                role: "assistant",
                content: [{ type: "tool_call", id: "", name: "", args: {}, rawArgs: "{not json" }],
              },
            ]
          : [],
      );
    },
  );

  it("an unknown API answers 404 without respond, and its request has empty fields", async () => {
    let called = false;
    const scripted = createScriptedModel({
      respond: () => {
        called = true;
        return { content: [] };
      },
    });
    const response = await scripted.fetch("https://example.com/v1/nothing", {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(404);
    expect(called).toBe(false);
    expect(scripted.requests[0]).toMatchObject({
      provider: "unknown",
      model: "",
      messages: [],
      tools: [],
      toolResults: [],
    });
  });
});

/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const SCREENSHOT = {
  name: "screenshot",
  description: "Takes a screenshot",
  inputSchema: { type: "object", properties: {} },
};

/** Sends a built request to a scripted model: what `respond` got. */
async function received(wire: WireRequest): Promise<RecordedRequest> {
  const seen: RecordedRequest[] = [];
  const scripted = createScriptedModel({
    respond: (request) => {
      seen.push(request);
      return { content: [{ type: "text", text: "ok" }] };
    },
  });
  const response = await scripted.fetch(wire.url, {
    method: "POST",
    headers: wire.headers,
    body: JSON.stringify(wire.body),
  });
  await response.text();
  expect(seen).toHaveLength(1);
  return seen[0] as RecordedRequest;
}

/**
 * A conversation with what each wire format must carry: an image in the prompt, signed thinking, text,
 * two calls, a result with an image, a user message sent while tools ran, an error result, and a user
 * message after it. `provider` made the replies; `signature` signs their thinking.
 */
function conversation(
  provider: "anthropic" | "openai-chat" | "openai-responses" | "google",
  signature: string,
) {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  const reply = { timestamp: 0, provider, model: "m", usage, stopReason: "toolUse" } as const;
  const messages: Message[] = [
    {
      id: "u1",
      role: "user",
      timestamp: 0,
      content: [
        { type: "text", text: "Weather in Oslo, and what is on screen?" },
        { type: "image", data: PNG, mimeType: "image/jpeg" },
      ],
    },
    {
      id: "a1",
      role: "assistant",
      ...reply,
      content: [
        { type: "thinking", text: "Two tools.", signature },
        { type: "text", text: "Looking." },
        { type: "tool_call", id: "call_a", name: "weather", args: { city: "Oslo" } },
        { type: "tool_call", id: "call_b", name: "screenshot", args: {} },
      ],
    },
    {
      id: "r1",
      role: "tool_result",
      timestamp: 0,
      content: [
        { type: "tool_result", toolCallId: "call_a", toolName: "weather", output: "Sunny", isError: false },
        {
          type: "tool_result",
          toolCallId: "call_b",
          toolName: "screenshot",
          output: "The page",
          images: [{ type: "image", data: PNG, mimeType: "image/png" }],
          isError: false,
        },
      ],
    },
    { id: "u2", role: "user", timestamp: 0, content: [{ type: "text", text: "Bergen too, please." }] },
    {
      id: "a2",
      role: "assistant",
      ...reply,
      content: [{ type: "tool_call", id: "call_c", name: "weather", args: { city: "Bergen" } }],
    },
    {
      id: "r2",
      role: "tool_result",
      timestamp: 0,
      content: [
        {
          type: "tool_result",
          toolCallId: "call_c",
          toolName: "weather",
          output: "No such city",
          isError: true,
        },
      ],
    },
    { id: "u3", role: "user", timestamp: 0, content: [{ type: "text", text: "Hurry." }] },
  ];
  const request: ModelRequest = { messages, systemPrompt: SYSTEM, tools: [weather, SCREENSHOT] };
  return request;
}

const TOOLS = [
  { name: "weather", description: "The weather in a city", inputSchema: weather.inputSchema },
  SCREENSHOT,
];

/** `messages` as a wire format without an error flag carries them: every result `isError: false`. */
const withoutErrorFlags = (messages: readonly Message[]): Message[] =>
  messages.map((message) =>
    message.role === "tool_result"
      ? { ...message, content: message.content.map((part) => ({ ...part, isError: false })) }
      : message,
  );

/** The last message's results, as `toolResults` must hold them. */
const lastResults = (messages: readonly Message[]) =>
  messages.flatMap((message, index) =>
    message.role === "tool_result" && index === 5 ? message.content : [],
  );

describe("what each request builder sends reads back into the conversation it was built from", () => {
  it("Anthropic: all of it (the user message after the results shares their wire message)", async () => {
    const request = conversation("anthropic", "sig-anthropic");
    const wire = buildAnthropicRequest(request, {
      model: "claude-sonnet-4-5",
      baseURL: "https://api.anthropic.com",
    });
    const read = await received(wire);
    expect(read.model).toBe("claude-sonnet-4-5");
    expect(read.systemPrompt).toBe(SYSTEM);
    expect(read.tools).toEqual(TOOLS);
    expect(view(read.messages)).toEqual(view(request.messages));
    expect(read.messages.map((message) => message.id)).toEqual(
      ["0", "1", "2", "3", "4", "5", "6"].map((n) => `request-0-${n}`),
    );
    expect(read.toolResults).toEqual(lastResults(request.messages));
    expect(read.toolResults[0]?.isError).toBe(true);
  });

  it("Chat Completions: all but the thinking and the error flag; the results' images go back into them", async () => {
    const request = conversation("openai-chat", "unused");
    const wire = buildOpenAIChatRequest(request, { model: "gpt-4o", baseURL: "https://api.openai.com/v1" });
    const read = await received(wire);
    expect(read.model).toBe("gpt-4o");
    expect(read.systemPrompt).toBe(SYSTEM);
    expect(read.tools).toEqual(TOOLS);
    const expected = withoutErrorFlags(request.messages).map(
      (message): Message =>
        message.role === "assistant"
          ? { ...message, content: message.content.filter((part) => part.type !== "thinking") }
          : message,
    );
    expect(view(read.messages)).toEqual(view(expected));
    expect(read.toolResults).toEqual(lastResults(expected));
  });

  it("Responses: all but the error flag (its own reasoning item comes back as the thinking part)", async () => {
    const item = {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "Two tools." }],
      encrypted_content: "gAAAA-secret",
    };
    const request = conversation("openai-responses", JSON.stringify(item));
    const wire = buildResponsesRequest(request, { model: "gpt-5", baseURL: "https://api.openai.com/v1" });
    const read = await received(wire);
    expect(read.model).toBe("gpt-5");
    expect(read.systemPrompt).toBe(SYSTEM);
    expect(read.tools).toEqual(TOOLS);
    const expected = withoutErrorFlags(request.messages);
    expect(view(read.messages)).toEqual(view(expected));
    expect(read.toolResults).toEqual(lastResults(expected));
  });

  it.each(["gemini-3-pro-preview", "gemini-2.5-flash"])(
    "Gemini (%s): all but the call ids, which are derived and pair each result with its call",
    async (model) => {
      const request = conversation("google", "sig-google");
      const wire = buildGeminiRequest(request, {
        model,
        baseURL: "https://generativelanguage.googleapis.com/v1beta",
      });
      const read = await received(wire);
      expect(read.model).toBe(model);
      expect(read.systemPrompt).toBe(SYSTEM);
      expect(read.tools).toEqual(TOOLS);
      const ids = new Map([
        ["call_a", "gemini-call-0"],
        ["call_b", "gemini-call-1"],
        ["call_c", "gemini-call-2"],
      ]);
      const expected = renamedCalls(request.messages, ids);
      expect(view(read.messages)).toEqual(view(expected));
      expect(read.toolResults).toEqual(lastResults(expected));
    },
  );

  it("Gemini: another provider's call comes back without the signature Wisp sent for it", async () => {
    const request = conversation("anthropic", "sig-anthropic");
    const wire = buildGeminiRequest(request, {
      model: "gemini-3-pro-preview",
      baseURL: "https://x.test/v1beta",
    });
    expect(JSON.stringify(wire.body)).toContain(FOREIGN_CALL_SIGNATURE);
    const read = await received(wire);
    const calls = read.messages.flatMap((message) =>
      message.role === "assistant" ? message.content.filter((part) => part.type === "tool_call") : [],
    );
    expect(calls).toEqual([
      { type: "tool_call", id: "gemini-call-0", name: "weather", args: { city: "Oslo" } },
      { type: "tool_call", id: "gemini-call-1", name: "screenshot", args: {} },
      { type: "tool_call", id: "gemini-call-2", name: "weather", args: { city: "Bergen" } },
    ]);
    // Another provider's thinking is not sent.
    expect(read.messages[1]?.content.map((part) => part.type)).toEqual(["text", "tool_call", "tool_call"]);
  });

  it("Gemini: structured output's hidden answer tool and schema instruction stay out of tools and prompt", async () => {
    const request = conversation("google", "sig-google");
    const object = buildGeminiRequest(
      { ...request, output: { name: "answer", schema: { type: "object", properties: {} } } },
      { model: "gemini-2.5-flash", baseURL: "https://x.test/v1beta" },
    );
    expect(JSON.stringify(object.body)).toContain('"final_answer"');
    expect((await received(object)).tools).toEqual(TOOLS);
    const text = buildGeminiRequest(
      { ...request, output: { name: "answer", schema: { type: "string" } } },
      { model: "gemini-2.5-flash", baseURL: "https://x.test/v1beta" },
    );
    expect(JSON.stringify(text.body)).toContain("answer with only a JSON value");
    expect((await received(text)).systemPrompt).toBe(SYSTEM);
  });
});
