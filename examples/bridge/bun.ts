/**
 * The bridge scenario on Bun: the session in a Bun (Web) worker, driven from the main thread.
 *
 * Run: npm run build && npx bun examples/bridge/bun.ts
 */
import { runBridgeScenario } from "./scenario.js";

console.log(`bun ${Bun.version}, Web Worker`);
const failed = await runBridgeScenario({
  start: () => {
    const worker = new Worker(new URL("./agent-worker.js", import.meta.url).href, { type: "module" });
    return { port: worker, end: () => worker.terminate() };
  },
  log: (line) => console.log(line),
});
process.exit(failed === 0 ? 0 : 1);
