/**
 * The portability scenario on Node (20 and later), against the scripted model on loopback HTTP.
 * Plain JavaScript, so it runs on Node 20 without a type stripper.
 *
 * Run: npm run build && node examples/node/scenario.mjs
 */
import { serveScriptedModel } from "wisp-agent/testing/node";
import { createScenarioModel, runScenario } from "../shared/scenario.js";

const model = createScenarioModel();
const server = await serveScriptedModel(model);
console.log(`node ${process.version}, scripted model on ${server.url}`);
const failed = await runScenario({
  connection: { baseURL: server.url },
  disconnects: () => model.disconnects,
  log: (line) => console.log(line),
});
await server.close();
process.exitCode = failed === 0 ? 0 : 1;
