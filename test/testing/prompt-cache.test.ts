/**
 * The scripted model's prompt accounting (`promptCache: true`): a 20-turn session reads from cache on
 * every turn after the first and costs less than the same session with caching off — on Anthropic
 * through Wisp's breakpoints, on OpenAI through its automatic prefixes — and a change to an early
 * message is a miss from there on.
 */
import { expect, it } from "vitest";
import { createAgentSession, type ModelOption, type Usage } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
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

it("OpenAI: every turn after the first reads the session's prefix, with or without Wisp's key (OpenAI caches by itself)", async () => {
  for (const cache of [undefined, false] as const) {
    const { usages } = await twentyTurns("openai/gpt-5", cache);
    expect(usages[0]?.cacheRead).toBe(0);
    for (const usage of usages.slice(1)) {
      expect(usage.cacheRead).toBeGreaterThan(2000);
      expect(usage.cacheRead % 128).toBe(0);
      expect(usage.cacheWrite).toBe(0);
    }
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
