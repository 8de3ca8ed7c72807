// The same as wisp-stream.ts, written with Vercel's ai and its Anthropic provider.
import { createAnthropic } from "@ai-sdk/anthropic";
import { streamText } from "ai";

const anthropic = createAnthropic({ apiKey: "key" });
const result = streamText({
  model: anthropic("claude-sonnet-4-5"),
  prompt: "Name a pelican.",
  maxOutputTokens: 200,
});
for await (const delta of result.textStream) console.log(delta);
console.log(await result.usage);
