// Agent loop overhead: a 200-turn tool-calling run against an instant in-process scripted model,
// compared with the same 200 model turns made by streamTurn alone (same requests, same streams).
// The difference is the loop's own work per turn: building requests from the conversation, running
// the tool with its timeout and signal, hooks, budgets, events and bookkeeping.
import { defineTool, runAgent, streamTurn } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { median } from "./stats.mjs";

const TURNS = 200;
const ROUNDS = 21;

function script() {
  const turns = [];
  for (let n = 0; n < TURNS - 1; n++) {
    turns.push({
      content: [
        { type: "text", text: "Next step." },
        { type: "tool_call", name: "step", args: { n } },
      ],
      usage: { input: 50, output: 10 },
    });
  }
  turns.push({ content: [{ type: "text", text: "Done." }], usage: { input: 50, output: 10 } });
  return turns;
}

const step = defineTool({
  name: "step",
  description: "One step",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  execute: ({ n }) => `step ${n} done`,
});

const options = (model) => ({
  model: "anthropic/claude-sonnet-4-5",
  apiKey: "k",
  fetch: model.fetch,
  maxTurns: TURNS,
  tools: [step],
  hooks: { preToolUse: () => undefined },
  budget: { maxCostUsd: 100 },
});

async function agentRun() {
  const model = createScriptedModel({ script: script() });
  const start = performance.now();
  const result = await runAgent({ ...options(model), prompt: "Go." });
  const ms = performance.now() - start;
  if (!result.ok || result.value.turns !== TURNS) throw new Error(`run failed: ${JSON.stringify(result)}`);
  return { ms, messages: result.value.messages };
}

/** The same model turns, each request built from the conversation as it stood then. */
async function turnsAlone(messages) {
  const model = createScriptedModel({ script: script() });
  const { tools: _, hooks: __, maxTurns: ___, budget: ____, ...turnOptions } = options(model);
  const request = {
    tools: [{ name: step.name, description: step.description, inputSchema: step.inputSchema }],
  };
  const starts = [];
  messages.forEach((message, index) => {
    if (message.role === "assistant") starts.push(index);
  });
  const start = performance.now();
  for (const index of starts) {
    const message = await streamTurn({ ...request, messages: messages.slice(0, index) }, turnOptions).message;
    if (message.error) throw new Error(message.error.message);
  }
  return performance.now() - start;
}

/** Measures the loop and returns the report section. */
export async function agentLoopSection() {
  const agent = [];
  const alone = [];
  let messages = (await agentRun()).messages; // warm-up, and the conversations turnsAlone replays
  await turnsAlone(messages);
  for (let round = 0; round < ROUNDS; round++) {
    // Each part goes first in every other round, so drift weighs on both alike.
    if (round % 2 === 0) {
      const run = await agentRun();
      messages = run.messages;
      agent.push(run.ms);
      alone.push(await turnsAlone(messages));
    } else {
      const turns = await turnsAlone(messages);
      const run = await agentRun();
      messages = run.messages;
      alone.push(turns);
      agent.push(run.ms);
    }
  }
  const perTurn = (ms) => ms / TURNS;
  const agentMs = median(agent);
  const aloneMs = median(alone);
  const overhead = median(agent.map((ms, index) => perTurn(ms - alone[index])));
  return `## Agent loop overhead: ${TURNS} tool-calling turns, in-process, instant scripted model

One runAgent run of ${TURNS} turns (a text part and a tool call each, a \`preToolUse\` hook, a cost budget),
against the same ${TURNS} model turns made by streamTurn alone from the same conversations. Median of
${ROUNDS} rounds after a warm-up, each part first in every other round; the overhead is the median of
each round's difference (a forced collection before each part made both slower and the difference
noisier). Target: under 0.2 ms of loop work per turn.

| measure | total ms | ms per turn |
|---|---:|---:|
| runAgent, ${TURNS} turns | ${agentMs.toFixed(1)} | ${perTurn(agentMs).toFixed(3)} |
| streamTurn alone, same turns | ${aloneMs.toFixed(1)} | ${perTurn(aloneMs).toFixed(3)} |
| **loop overhead** | | **${overhead.toFixed(3)}** |
`;
}
