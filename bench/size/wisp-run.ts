// An agent run, no tools, awaited with runAgent: the program the MCP programs add a server's tools to.
import { runAgent } from "wisp-agent";

const result = await runAgent({
  model: "anthropic/claude-sonnet-4-5",
  apiKey: "key",
  prompt: "Save a note.",
});
console.log(result);
