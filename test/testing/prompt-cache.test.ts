/**
 * The scripted model's prompt accounting (`promptCache: true`): a 20-turn session reads from cache on
 * every turn after the first and costs less than the same session with caching off — on Anthropic
 * through Wisp's breakpoints (each of them shown to pay: the tools', the system prompt's, the previous
 * request's end and the conversation's end), on OpenAI through its automatic prefixes under the
 * `prompt_cache_key` Wisp sets to the session's id (so a session's reads are its own) — and a change
 * to an early message is a miss from there on.
 */
import { expect, it } from "vitest";
import {
  createAgentSession,
  defineTool,
  type ModelOption,
  type PromptCache,
  runAgent,
  type Usage,
} from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

/** A system prompt of about 2,500 tokens, past every provider's minimum. */
const SYSTEM = "You are a careful assistant who answers in one short sentence. ".repeat(160);

async function twentyTurns(model: ModelOption, cache?: false) {
  const scripted = createScriptedModel({
    script: Array.from({ length: 20 }, (_, index) => says(`Answer ${index + 1}.`)),
    promptCache: true,
  });
  const session = okValue(
    await createAgentSession({
      model,
      apiKey: "k",
      fetch: scripted.fetch,
      systemPrompt: SYSTEM,
      ...(cache === false ? { cache } : {}),
    }),
  );
  const usages: Usage[] = [];
  for (let turn = 1; turn <= 20; turn++) {
    const result = await session.chat(`Question ${turn}?`);
    if (!result.ok) throw result.error;
    usages.push(result.value.usage);
  }
  const cost = usages.reduce((sum, usage) => sum + (usage.costUsd ?? 0), 0);
  return { usages, cost };
}

it("Anthropic: a 20-turn session reads from cache on every turn after the first and costs less than without", async () => {
  const cached = await twentyTurns("anthropic/claude-sonnet-4-6");
  const uncached = await twentyTurns("anthropic/claude-sonnet-4-6", false);
  expect(cached.usages[0]?.cacheRead).toBe(0);
  expect(cached.usages[0]?.cacheWrite).toBeGreaterThan(2000);
  for (const usage of cached.usages.slice(1)) expect(usage.cacheRead).toBeGreaterThan(2000);
  for (const usage of uncached.usages) expect(usage.cacheRead + usage.cacheWrite).toBe(0);
  expect(cached.cost).toBeLessThan(uncached.cost * 0.5);
});

/**
 * Two sessions with the same prompt on one scripted OpenAI model, their turns interleaved: each turn's
 * cache reads and the `prompt_cache_key` each request carried.
 */
async function twoOpenAISessions(cache?: PromptCache | false) {
  const scripted = createScriptedModel({
    script: Array.from({ length: 6 }, (_, index) => says(`Answer ${index + 1}.`)),
    promptCache: true,
  });
  const open = async () =>
    okValue(
      await createAgentSession({
        model: "openai/gpt-5",
        apiKey: "k",
        fetch: scripted.fetch,
        systemPrompt: SYSTEM,
        ...(cache === undefined ? {} : { cache }),
      }),
    );
  const sessions = [await open(), await open()] as const;
  const usages: [Usage[], Usage[]] = [[], []];
  for (let turn = 1; turn <= 3; turn++)
    for (const [index, session] of sessions.entries()) {
      const result = await session.chat(`Question ${turn}?`);
      if (!result.ok) throw result.error;
      usages[index]?.push(result.value.usage);
    }
  const keys = scripted.requests.map(
    (request) => (request.body as { prompt_cache_key?: string }).prompt_cache_key,
  );
  return { usages, keys, ids: sessions.map((session) => session.sessionId) };
}

/** Every turn after a session's first reads its prefix, in 128-token steps, and writes nothing. */
function expectLaterTurnsRead(usages: Usage[]): void {
  for (const usage of usages.slice(1)) {
    expect(usage.cacheRead).toBeGreaterThan(2000);
    expect(usage.cacheRead % 128).toBe(0);
    expect(usage.cacheWrite).toBe(0);
  }
}

it("OpenAI: Wisp keys each session's cache by its id, so a session reads its own prefix and starts cold beside another", async () => {
  const { usages, keys, ids } = await twoOpenAISessions();
  const [first = "", second = ""] = ids;
  // The second session sends the very prompt the first just sent, but under its own key: nothing to read.
  expect(usages[0][0]?.cacheRead).toBe(0);
  expect(usages[1][0]?.cacheRead).toBe(0);
  expect(keys).toEqual([first, second, first, second, first, second]);
  expectLaterTurnsRead(usages[0]);
  expectLaterTurnsRead(usages[1]);
});

it("OpenAI: with no key (cache: false) OpenAI still caches by itself, by prefix across sessions; a key the caller shares joins them", async () => {
  for (const cache of [false, { key: "tenant-7" }] as const) {
    const { usages, keys } = await twoOpenAISessions(cache);
    expect(new Set(keys)).toEqual(new Set([cache === false ? undefined : "tenant-7"]));
    expect(usages[0][0]?.cacheRead).toBe(0);
    // The second session's first request is the first session's first request: read whole.
    expect(usages[1][0]?.cacheRead).toBeGreaterThan(2000);
    expectLaterTurnsRead(usages[0]);
    expectLaterTurnsRead(usages[1]);
  }
});

it("Anthropic: an edited early message is a miss past it; the tools and system prompt are still read", async () => {
  const scripted = createScriptedModel({
    script: [says("One."), says("Two."), says("Three.")],
    promptCache: true,
  });
  const options = {
    model: "anthropic/claude-sonnet-4-6" as const,
    apiKey: "k",
    fetch: scripted.fetch,
    systemPrompt: SYSTEM,
  };
  const session = okValue(await createAgentSession(options));
  await session.chat("First?");
  await session.chat("Second?");
  const state = JSON.parse(JSON.stringify(session.export()));
  state.messages[0].content[0].text = "First, edited?";
  const edited = okValue(await createAgentSession({ ...options, restore: state }));
  const result = await edited.chat("Third?");
  if (!result.ok) throw result.error;
  // Only the system prompt (marked, unchanged) is read; everything after the edit is written again.
  expect(result.value.usage.cacheRead).toBeGreaterThan(2000);
  expect(result.value.usage.cacheRead).toBeLessThan(2700);
  expect(result.value.usage.cacheWrite).toBeGreaterThan(0);
});

it("Anthropic: the conversation itself is read from cache, not only the system prompt (the rolling marks)", async () => {
  const long = "Tell me more about the history of this place, in detail. ".repeat(40);
  const scripted = createScriptedModel({
    script: Array.from({ length: 6 }, () => says(`${"A long answer. ".repeat(60)}`)),
    promptCache: true,
  });
  const session = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-6",
      apiKey: "k",
      fetch: scripted.fetch,
    }),
  );
  const reads: number[] = [];
  for (let turn = 0; turn < 6; turn++) {
    const result = await session.chat(`${long} (${turn})`);
    if (!result.ok) throw result.error;
    reads.push(result.value.usage.cacheRead);
  }
  // No system prompt: every read is conversation, and it grows turn by turn.
  for (let turn = 2; turn < 6; turn++) expect(reads[turn]).toBeGreaterThan(reads[turn - 1] as number);
});

it("Anthropic: a turn that adds more than 20 blocks still reads what the request before it wrote (the previous request's mark)", async () => {
  const clock = defineTool({
    name: "clock",
    description: "Tells the time",
    inputSchema: { type: "object", properties: {} },
    execute: () => "noon",
  });
  // Twelve calls at once: 12 tool_use blocks and 12 tool_result blocks after the prompt, past the
  // 20 blocks Anthropic looks back from a mark.
  const scripted = createScriptedModel({
    script: [
      calls(...Array.from({ length: 12 }, () => ["clock", {}] as [string, Record<string, never>])),
      says("Noon."),
    ],
    promptCache: true,
  });
  const result = await runAgent({
    model: "anthropic/claude-sonnet-4-6",
    apiKey: "k",
    fetch: scripted.fetch,
    tools: [clock],
    // No system prompt: what the second request reads can only be the first request's prompt.
    prompt: "Tell me the time, asking the clock twelve times over to be sure of it. ".repeat(60),
  });
  if (!result.ok) throw result.error;
  const [first, second] = scripted.requests.map((request) => request.body as { messages: unknown[] });
  expect(first?.messages).toHaveLength(1);
  expect(second?.messages).toHaveLength(3);
  const [written, read] = result.value.messages.flatMap((message) =>
    message.role === "assistant" ? [message.usage] : [],
  );
  expect(written?.cacheWrite).toBeGreaterThan(1024);
  expect(read?.cacheRead).toBe(written?.cacheWrite);
});

it("Anthropic: a session with another system prompt still reads the same tools (the tools' mark)", async () => {
  // Tool definitions of about 2,000 tokens, past the minimum on their own.
  const tools = Array.from({ length: 4 }, (_, index) =>
    defineTool({
      name: `lookup_${index}`,
      description: `Looks up records of kind ${index}. `.repeat(60),
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
      execute: () => "found",
    }),
  );
  const scripted = createScriptedModel({ script: [says("One."), says("Two.")], promptCache: true });
  const first = async (systemPrompt: string) => {
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-6",
        apiKey: "k",
        fetch: scripted.fetch,
        tools,
        systemPrompt,
      }),
    );
    const result = await session.chat("Find record 7.");
    if (!result.ok) throw result.error;
    return result.value.usage;
  };
  const monday = await first("Today is Monday. Be brief.");
  const tuesday = await first("Today is Tuesday. Be brief.");
  expect(monday.cacheRead).toBe(0);
  expect(monday.cacheWrite).toBeGreaterThan(1024);
  // The tools come first in Anthropic's cache order: read, though everything after them changed.
  expect(tuesday.cacheRead).toBeGreaterThan(1024);
  expect(tuesday.cacheRead).toBeLessThan(monday.cacheWrite);
});
