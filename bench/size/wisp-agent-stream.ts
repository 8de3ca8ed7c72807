// An agent run streamed, no tools: runAgentStream in a browser program.
import { runAgentStream } from "wisp-agent";

const run = runAgentStream({
  model: "anthropic/claude-sonnet-4-5",
  apiKey: "key",
  prompt: "Name a pelican.",
  maxTokens: 200,
});
for await (const event of run) if (event.type === "text-delta") console.log(event.delta);
console.log(await run.result);
