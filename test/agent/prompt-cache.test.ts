/**
 * Prompt caching, on by default: Anthropic requests mark the tools, the system prompt, the previous
 * request's end and the conversation's end (four breakpoints at most); OpenAI requests carry the
 * session's id as `prompt_cache_key` on OpenAI's own endpoint; `cache: false` sends none of it; the
 * one-hour TTL is marked and its writes priced at twice the input price; a bad option is a ConfigError.
 */
import { describe, expect, it } from "vitest";
import {
  createAgentSession,
  defineTool,
  type JsonObject,
  runAgent,
  type SessionOptions,
  type Tool,
} from "../../src/index.ts";
import type { ScriptedModel } from "../../src/testing/index.ts";
import { calls, requestBody, says, scripted } from "../support/agent.ts";
import { anthropicRequest, chatRequest, responsesRequest } from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";

const clock = defineTool({
  name: "clock",
  description: "Tells the time",
  inputSchema: { type: "object", properties: {} },
  execute: () => "noon",
});

/** The paths in `body` that carry a cache mark. */
function marks(value: unknown, path = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === "cache_control" ? [path] : marks(child, path === "" ? key : `${path}.${key}`),
  );
}

describe("Anthropic", () => {
  it("marks the tools, the system prompt, the previous request's end and the conversation's end", async () => {
    const { model, options } = scripted([calls(["clock", {}]), calls(["clock", {}]), says("Noon.")]);
    const result = await runAgent(options({ tools: [clock], systemPrompt: "Be brief." }));
    expect(result.ok).toBe(true);
    expect(marks(requestBody(model, 0))).toEqual(["messages.0.content.0", "system.0", "tools.0"]);
    // Third request: user, reply, results, reply, results — the previous end is message 2.
    const third = requestBody(model, 2);
    expect(marks(third)).toEqual(["messages.2.content.0", "messages.4.content.0", "system.0", "tools.0"]);
    expect(anthropicRequest.safeParse(third).success).toBe(true);
  });

  it("a one-hour TTL is marked, and its writes cost twice the input price", async () => {
    const turn = { ...says("Hi."), usage: { input: 0, output: 0, cacheWrite: 1_000_000 } };
    const run = async (cache: { ttl: "5m" | "1h" }) => {
      const { model, options } = scripted([turn], "anthropic/claude-sonnet-4-6");
      const result = await runAgent(options({ cache }));
      if (!result.ok) throw result.error;
      return { body: requestBody(model, 0), cost: result.value.usage.costUsd };
    };
    const hour = await run({ ttl: "1h" });
    expect(JSON.stringify(hour.body)).toContain('"cache_control":{"type":"ephemeral","ttl":"1h"}');
    // claude-sonnet-4-6: $3 input, $3.75 for a five-minute write, $6 for a one-hour write (per million).
    expect(hour.cost).toBe(6);
    expect((await run({ ttl: "5m" })).cost).toBe(3.75);
  });

  it("cache: false marks nothing", async () => {
    const { model, options } = scripted([calls(["clock", {}]), says("Noon.")]);
    await runAgent(options({ tools: [clock], systemPrompt: "Be brief.", cache: false }));
    expect(marks(requestBody(model, 1))).toEqual([]);
    expect(requestBody(model, 1).system).toBe("Be brief.");
  });
});

describe("OpenAI", () => {
  it("a session's requests carry its id as prompt_cache_key, with the retention asked for", async () => {
    for (const [name, schema] of [
      ["openai/gpt-4o", chatRequest],
      ["openai-responses/gpt-5", responsesRequest],
    ] as const) {
      const { model } = scripted([says("Hi."), says("Again.")], name);
      const session = okValue(
        await createAgentSession({
          model: name,
          apiKey: "k",
          fetch: model.fetch,
          cache: { retention: "24h" },
        }),
      );
      await session.chat("Hello");
      await session.chat("Hello again");
      for (const index of [0, 1]) {
        const body = requestBody(model, index);
        expect(body).toMatchObject({ prompt_cache_key: session.sessionId, prompt_cache_retention: "24h" });
        expect(schema.safeParse(body).success).toBe(true);
      }
    }
  });

  it("OpenAI's own endpoint named as baseURL, with or without a path, still gets the session's key", async () => {
    for (const official of [
      "https://api.openai.com",
      "https://api.openai.com/v1",
      "https://api.openai.com:443/v1",
    ]) {
      const { model } = scripted([says("Hi.")], "openai/gpt-4o");
      const session = okValue(
        await createAgentSession({
          model: "openai/gpt-4o",
          apiKey: "k",
          fetch: model.fetch,
          baseURL: official,
        }),
      );
      await session.chat("Hello");
      expect(requestBody(model, 0)).toMatchObject({ prompt_cache_key: session.sessionId });
    }
  });

  it("a compatible server gets no key Wisp made up, only one the caller set; cache: false sends none", async () => {
    for (const lookalike of ["https://api.openai.com.evil.example/v1", "https://api.openai.computer/v1"]) {
      const { model, options } = scripted([says("Hi.")], "openai/gpt-4o");
      await runAgent(options({ baseURL: lookalike }));
      expect(requestBody(model, 0)).not.toHaveProperty("prompt_cache_key");
    }
    const run = async (extra: Record<string, unknown>) => {
      const { model, options } = scripted([says("Hi.")], "openai/llama");
      await runAgent(options({ baseURL: "https://api.groq.com/openai/v1", ...extra }));
      return requestBody(model, 0);
    };
    expect(await run({})).not.toHaveProperty("prompt_cache_key");
    expect(await run({ cache: { key: "tenant-7" } })).toMatchObject({ prompt_cache_key: "tenant-7" });
    const { model, options } = scripted([says("Hi.")], "openai/gpt-4o");
    await runAgent(options({ cache: false }));
    expect(requestBody(model, 0)).not.toHaveProperty("prompt_cache_key");
  });
});

it.each([
  [{ cache: "yes" }, "cache"],
  [{ cache: { ttl: "2h" } }, "cache.ttl"],
  [{ cache: { retention: "forever" } }, "cache.retention"],
  [{ cache: { key: 7 } }, "cache.key"],
])("%j is a ConfigError naming %s", async (extra, path) => {
  const { options } = scripted([says("Hi.")]);
  const result = await runAgent(options(extra as never));
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error).toMatchObject({ code: "CONFIG_INVALID", path });
});

/** A session on Claude Sonnet against `model`, with `tools` (a list the test may change in place). */
function clockSession(model: ScriptedModel, tools: Tool<JsonObject>[], extra: Partial<SessionOptions> = {}) {
  return createAgentSession({
    model: "anthropic/claude-sonnet-4-5",
    apiKey: "k",
    fetch: model.fetch,
    tools,
    ...extra,
  }).then(okValue);
}

describe("cache misses are visible", () => {
  it("a session's normal turns miss nothing; a changed tool list is a cache-miss event naming it", async () => {
    const { model } = scripted([calls(["clock", {}]), says("Noon."), says("Later."), says("Still.")]);
    const tools: Tool<JsonObject>[] = [clock];
    const session = await clockSession(model, tools);
    const misses: string[] = [];
    const watch = async (prompt: string) => {
      for await (const event of session.stream(prompt))
        if (event.type === "cache-miss") misses.push(event.reason);
    };
    await watch("Time?");
    await watch("And now?");
    expect(misses).toEqual([]);
    // An MCP server's list_changed replaces the tools in place, as here.
    tools.push(
      defineTool({
        name: "alarm",
        description: "Sets an alarm",
        inputSchema: { type: "object" },
        execute: () => "set",
      }),
    );
    await watch("Wake me");
    expect(misses).toEqual(["the tools changed"]);
  });

  it("no cache-miss events when caching is off", async () => {
    const { model } = scripted([says("One."), says("Two.")]);
    const tools: Tool<JsonObject>[] = [clock];
    const session = await clockSession(model, tools, { cache: false });
    await session.chat("One?");
    tools.pop();
    const events = [];
    for await (const event of session.stream("Two?")) events.push(event.type);
    expect(events).not.toContain("cache-miss");
  });
});
