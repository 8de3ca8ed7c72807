// An agent run with one MCP server's tools (Streamable HTTP, a bearer header): connectMcp in a browser program.
import { runAgent } from "wisp-agent";
import { connectMcp } from "wisp-agent/mcp";

const mcp = await connectMcp({
  url: "https://notes.example.com/mcp",
  headers: { authorization: "Bearer token" },
});
if (mcp.ok) {
  const result = await runAgent({
    model: "anthropic/claude-sonnet-4-5",
    apiKey: "key",
    prompt: "Save a note.",
    tools: mcp.value.tools,
  });
  console.log(result);
  await mcp.value.close();
}
