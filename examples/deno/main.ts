/**
 * The portability scenario on Deno, against the scripted model served by Deno's own HTTP server on
 * loopback. `wisp-agent` and `zod` resolve from the project's package.json and node_modules.
 *
 * Run: npm run build && npx deno run --unstable-no-legacy-abort --allow-net=127.0.0.1 --allow-read examples/deno/main.ts
 * (`--unstable-no-legacy-abort`: without it Deno aborts `request.signal` even after a response
 * completes, and says so on every start.)
 */
import { createScenarioModel, runScenario } from "../shared/scenario.js";

const model = createScenarioModel();
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, model.handle);
const url = `http://127.0.0.1:${server.addr.port}`;
console.log(`deno ${Deno.version.deno}, scripted model on ${url}`);
const failed = await runScenario({
  connection: { baseURL: url },
  disconnects: () => model.disconnects,
  log: (line) => console.log(line),
});
await server.shutdown();
Deno.exit(failed === 0 ? 0 : 1);
