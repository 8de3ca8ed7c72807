// Prompt caching (issue 20): what a 20-turn session costs with Wisp's caching and without, on the
// scripted model's accounting of cached prefixes (createScriptedModel({ promptCache: true }): prompt
// tokens estimated from the request text, Anthropic's marked breakpoints, OpenAI's automatic
// prefixes), priced by Wisp's price table.
import { createAgentSession, unwrap } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";

const TURNS = 20;
/** A system prompt of about 2,500 tokens, past every provider's minimum for caching. */
const SYSTEM = "You are a careful assistant who answers in one short sentence. ".repeat(160);

async function session(model, cache) {
  const scripted = createScriptedModel({
    script: Array.from({ length: TURNS }, (_, index) => ({
      content: [{ type: "text", text: `Answer ${index + 1}.` }],
    })),
    promptCache: true,
  });
  const live = unwrap(
    await createAgentSession({
      model,
      apiKey: "k",
      fetch: scripted.fetch,
      systemPrompt: SYSTEM,
      ...(cache === false ? { cache: false } : {}),
    }),
  );
  const totals = { cost: 0, input: 0, cacheRead: 0, cacheWrite: 0 };
  for (let turn = 1; turn <= TURNS; turn++) {
    const result = await live.chat(`Question ${turn}?`);
    if (!result.ok) throw result.error;
    const { usage } = result.value;
    totals.cost += usage.costUsd ?? 0;
    totals.input += usage.input;
    totals.cacheRead += usage.cacheRead;
    totals.cacheWrite += usage.cacheWrite;
  }
  return totals;
}

/** @returns {Promise<string>} the section's markdown */
export async function promptCacheSection() {
  const rows = [];
  for (const model of ["anthropic/claude-sonnet-4-6", "openai/gpt-5"]) {
    const on = await session(model);
    const off = await session(model, false);
    for (const [label, totals] of [
      ["on (default)", on],
      ["`cache: false`", off],
    ])
      rows.push(
        `| ${model} | ${label} | ${totals.input.toLocaleString("en-US")} | ${totals.cacheRead.toLocaleString("en-US")} | ${totals.cacheWrite.toLocaleString("en-US")} | ${totals.cost.toFixed(4)} |`,
      );
    rows.push(`| ${model} | **cost with / without** | | | | **${(on.cost / off.cost).toFixed(2)}x** |`);
  }
  return `## Prompt caching: a ${TURNS}-turn session

A session with a system prompt of about 2,500 tokens and ${TURNS} short prompts, on the scripted model's
accounting of cached prefixes (\`createScriptedModel({ promptCache: true })\`, src/testing/prompt-accounting.ts:
Anthropic reads and writes at Wisp's breakpoints; OpenAI reads the longest prefix it saw, in 128-token
steps, whatever the client sends — so \`cache: false\` changes nothing there), priced by Wisp's table.
Token totals over the session.

| model | caching | input | cache read | cache write | cost USD |
|---|---|---:|---:|---:|---:|
${rows.join("\n")}
`;
}
