// An agent with one tool defined with zod (its classic API, imported as a namespace).

import { defineTool, runAgentStream } from "wisp-agent";
import * as z from "zod";

const calculator = defineTool({
  name: "calculator",
  description: "Multiplies two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});
const run = runAgentStream({
  model: "anthropic/claude-sonnet-4-5",
  apiKey: "key",
  prompt: "6 × 7?",
  tools: [calculator],
});
for await (const event of run) if (event.type === "text-delta") console.log(event.delta);
console.log(await run.result);
