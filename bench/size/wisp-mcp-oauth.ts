// The same agent, the MCP server authorized with OAuth (mcpOAuth: discovery, registration, PKCE, tokens).
import { runAgent } from "wisp-agent";
import { connectMcp, mcpOAuth } from "wisp-agent/mcp";

const auth = mcpOAuth({
  redirectUrl: `${location.origin}/oauth/callback`,
  authorize: async (url) => {
    location.assign(url);
    return undefined;
  },
});
const mcp = await connectMcp({ url: "https://notes.example.com/mcp", auth });
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
