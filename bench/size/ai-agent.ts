// The same as wisp-agent.ts, written with Vercel's ai and its Anthropic provider.

import { createAnthropic } from "@ai-sdk/anthropic";
import { stepCountIs, streamText, tool } from "ai";
import * as z from "zod";

const anthropic = createAnthropic({ apiKey: "key" });
const calculator = tool({
  description: "Multiplies two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a * b,
});
const result = streamText({
  model: anthropic("claude-sonnet-4-5"),
  prompt: "6 × 7?",
  tools: { calculator },
  stopWhen: stepCountIs(25),
});
for await (const delta of result.textStream) console.log(delta);
console.log(await result.steps);
