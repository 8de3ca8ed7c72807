/**
 * The bridge scenario on Deno: the session in a Deno (Web) worker, driven from the main thread.
 *
 * Run: npm run build && npx deno run --allow-read examples/bridge/deno.ts
 */
import { runBridgeScenario } from "./scenario.js";

console.log(`deno ${Deno.version.deno}, Web Worker`);
const failed = await runBridgeScenario({
  start: () => {
    const worker = new Worker(new URL("./agent-worker.js", import.meta.url), { type: "module" });
    return { port: worker, end: () => worker.terminate() };
  },
  log: (line) => console.log(line),
});
Deno.exit(failed === 0 ? 0 : 1);
