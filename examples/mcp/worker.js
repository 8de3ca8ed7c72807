/**
 * The MCP scenario in a Cloudflare Worker (workerd, no `nodejs_compat`; workerd refuses code
 * generation): each request runs it against the MCP server named by `?url=` and answers with the
 * report, status 200 when every check passed and 500 otherwise.
 *
 * Run: npm run build && npx wrangler dev -c examples/mcp/wrangler.toml, then
 * curl "http://127.0.0.1:8789/?url=http://127.0.0.1:PORT/mcp"
 */
import { runMcpScenario } from "./scenario.js";

export default {
  /** @param {Request} request */
  async fetch(request) {
    const url = new URL(request.url).searchParams.get("url") ?? "";
    const lines = [`workerd, MCP server ${url}`];
    const failed = await runMcpScenario({ url, log: (line) => lines.push(line) });
    return new Response(`${lines.join("\n")}\n`, {
      status: failed === 0 ? 200 : 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  },
};
