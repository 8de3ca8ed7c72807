/**
 * The MCP scenario on Deno against an MCP server's URL (the first argument).
 *
 * Run: npm run build && npx deno run --allow-net=127.0.0.1 --allow-read --v8-flags=--disallow-code-generation-from-strings examples/mcp/deno.ts http://127.0.0.1:PORT/mcp
 */
import { runMcpScenario } from "./scenario.js";

// The project's type check has no Deno types (deno run does not type-check): the little used here.
declare const Deno: { version: { deno: string }; args: string[]; exit(code: number): never };

console.log(`deno ${Deno.version.deno}, MCP server ${Deno.args[0]}`);
const failed = await runMcpScenario({ url: String(Deno.args[0]), log: (line) => console.log(line) });
Deno.exit(failed === 0 ? 0 : 1);
