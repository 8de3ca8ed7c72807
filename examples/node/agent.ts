/**
 * An agent run end to end against the scripted model on loopback HTTP: two zod tools (a clock and a
 * calculator) called in parallel, a preToolUse hook that denies one call, streamed output, usage and
 * cost; then a run that hits its cost budget, and one cut by AbortSignal.timeout mid-stream.
 * Exits non-zero if anything differs from what is expected.
 *
 * Run: npm run demo
 */
import { defineTool, runAgent, runAgentStream } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { serveScriptedModel } from "wisp-agent/testing/node";
import { z } from "zod";

const clock = defineTool({
  name: "clock",
  description: "The current time in a time zone",
  input: z.object({ timeZone: z.string().describe("IANA zone, e.g. Europe/Oslo") }),
  execute: ({ timeZone }) => new Date().toLocaleTimeString("en-GB", { timeZone }),
});
const calculator = defineTool({
  name: "calculator",
  description: "Adds or multiplies two numbers",
  input: z.object({ op: z.enum(["add", "multiply"]), a: z.number(), b: z.number() }),
  execute: ({ op, a, b }) => (op === "add" ? a + b : a * b),
});

const model = createScriptedModel({
  script: [
    {
      content: [
        { type: "text", text: "Let me check the time and do the sum." },
        { type: "tool_call", name: "clock", args: { timeZone: "Europe/Oslo" } },
        { type: "tool_call", name: "calculator", args: { op: "multiply", a: 6, b: 7 } },
        { type: "tool_call", name: "clock", args: { timeZone: "Mars/Olympus_Mons" } },
      ],
      delayMs: 10,
    },
    {
      content: [
        {
          type: "text",
          text: "Oslo's time is above, and 6 × 7 is 42. Mars has no time zone I may ask about.",
        },
      ],
      delayMs: 10,
    },
    {
      content: [{ type: "tool_call", name: "calculator", args: { op: "add", a: 1, b: 1 } }],
      usage: { input: 400_000, output: 1000 },
    },
    {
      content: [{ type: "text", text: ["This ", "answer ", "never ", "finishes."] }],
      fault: { type: "stall", afterEvents: 5 },
    },
  ],
});
const server = await serveScriptedModel(model);
const base = {
  model: "anthropic/claude-sonnet-5-5" as const,
  apiKey: "demo",
  baseURL: server.url,
  tools: [clock, calculator],
};
let failures = 0;
const check = (ok: boolean, what: string) => {
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};
console.log(`scripted model listening on ${server.url}\n`);

// 1. A streamed run with parallel tools and a hook.
const run = runAgentStream({
  ...base,
  prompt: "What time is it in Oslo, and what is 6 × 7?",
  hooks: {
    // The hook knows the tools: narrowed on its name, a clock call's args are the clock's input.
    preToolUse: ({ toolCall }) =>
      toolCall.name === "clock" && toolCall.args.timeZone.startsWith("Mars/")
        ? { decision: "deny", reason: "Only Earth time zones are allowed." }
        : undefined,
  },
});
for await (const event of run) {
  if (event.type === "turn-start") console.log(`— turn ${event.turn}`);
  if (event.type === "text-delta") process.stdout.write(event.delta);
  if (event.type === "text-end") process.stdout.write("\n");
  if (event.type === "tool-call")
    console.log(`  → ${event.toolCall.name}(${JSON.stringify(event.toolCall.args)})`);
  if (event.type === "hook-decision") console.log(`  hook ${event.hook}: ${JSON.stringify(event.decision)}`);
  if (event.type === "tool-result") console.log(`  ← ${event.toolCall.name}: ${event.result.output}`);
}
const first = await run.result;
if (first.ok) {
  const { usage, turns, stopReason } = first.value;
  console.log(
    `\n${stopReason} after ${turns} turns: ${usage.input} in / ${usage.output} out, $${usage.costUsd?.toFixed(6)}\n`,
  );
}
check(
  first.ok &&
    first.value.turns === 2 &&
    first.value.toolCalls.length === 3 &&
    first.value.toolCalls[1]?.result.output === "42",
  "tools ran in parallel, results went back in order",
);
check(first.ok && first.value.toolCalls[2]?.result.isError === true, "the hook denied the Mars call");

// 2. A cost budget ends the run with a typed error.
const budgeted = await runAgent({ ...base, prompt: "Add 1 and 1", budget: { maxCostUsd: 0.5 } });
if (!budgeted.ok) console.log(`\nbudget: ${budgeted.error.message}`);
check(
  !budgeted.ok && budgeted.error.code === "BUDGET_EXCEEDED" && budgeted.partial.stopReason === "budget",
  "the budget stopped the run",
);

// 3. AbortSignal.timeout mid-stream: ABORTED, partial text kept, connection closed.
const started = Date.now();
const aborted = await runAgent({ ...base, prompt: "Tell me a story", signal: AbortSignal.timeout(150) });
if (!aborted.ok) {
  console.log(
    `\nabort: ${aborted.error.code} after ${Date.now() - started} ms, kept "${aborted.partial.text}"`,
  );
}
await new Promise((resolve) => setTimeout(resolve, 50));
check(
  !aborted.ok &&
    aborted.error.code === "ABORTED" &&
    aborted.partial.text === "This answer " &&
    model.disconnects === 1,
  "the timeout aborted the run, kept the partial text and closed the connection",
);

await server.close();
process.exit(failures === 0 ? 0 : 1);
