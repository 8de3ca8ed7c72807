// One streamed Anthropic turn, no tools: the smallest useful Wisp program.
import { streamTurn } from "wisp-agent";

const turn = streamTurn(
  {
    messages: [
      { id: "1", role: "user", content: [{ type: "text", text: "Name a pelican." }], timestamp: Date.now() },
    ],
    maxTokens: 200,
  },
  { model: "anthropic/claude-sonnet-4-5", apiKey: "key" },
);
for await (const event of turn) if (event.type === "text-delta") console.log(event.delta);
console.log((await turn.message).usage);
