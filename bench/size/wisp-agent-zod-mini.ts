// The same agent with its tool written in zod/mini, zod's tree-shakable API. A zod/mini schema does
// not convert itself to JSON Schema, so the program converts it once with zod's own toJSONSchema.
import { defineTool, type JsonObject, runAgentStream } from "wisp-agent";
import * as z from "zod/mini";

const input = z.object({ a: z.number(), b: z.number() });
const calculator = defineTool({
  name: "calculator",
  description: "Multiplies two numbers",
  input,
  inputSchema: z.toJSONSchema(input) as JsonObject,
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
