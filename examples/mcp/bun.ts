/**
 * The MCP scenario on Bun against an MCP server's URL (the first argument).
 *
 * Run: npm run build && npx bun examples/mcp/bun.ts http://127.0.0.1:PORT/mcp
 */
import { runMcpScenario } from "./scenario.js";

// The project's type check has no Bun types (bun does not type-check): the little used here.
declare const Bun: { version: string };

console.log(`bun ${Bun.version}, MCP server ${process.argv[2]}`);
const failed = await runMcpScenario({ url: String(process.argv[2]), log: (line) => console.log(line) });
process.exit(failed === 0 ? 0 : 1);
