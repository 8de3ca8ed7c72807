/**
 * The MCP scenario on Node against an MCP server's URL (the first argument). The test runs it with
 * `--disallow-code-generation-from-strings`.
 *
 * Run: npm run build && node --disallow-code-generation-from-strings examples/mcp/node.mjs http://127.0.0.1:PORT/mcp
 */
import { runMcpScenario } from "./scenario.js";

console.log(`node ${process.version}, MCP server ${process.argv[2]}`);
const failed = await runMcpScenario({ url: String(process.argv[2]), log: (line) => console.log(line) });
process.exit(failed === 0 ? 0 : 1);
