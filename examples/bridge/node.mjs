/**
 * The bridge scenario on Node: the session in a `worker_threads` worker, driven from the main thread.
 *
 * Run: npm run build && node examples/bridge/node.mjs
 */
import { Worker } from "node:worker_threads";
import { runBridgeScenario } from "./scenario.js";

console.log(`node ${process.version}, worker_threads`);
const failed = await runBridgeScenario({
  start: () => {
    const worker = new Worker(new URL("./agent-worker.js", import.meta.url));
    return { port: worker, end: () => worker.terminate() };
  },
  log: (line) => console.log(line),
});
process.exitCode = failed === 0 ? 0 : 1;
