/**
 * The portability scenario on Bun, against the scripted model served by `Bun.serve` on loopback.
 *
 * Run: npm run build && npx bun examples/bun/main.ts
 */
import { createScenarioModel, runScenario } from "../shared/scenario.js";

const model = createScenarioModel();
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: model.handle });
const url = `http://127.0.0.1:${server.port}`;
console.log(`bun ${Bun.version}, scripted model on ${url}`);
const failed = await runScenario({
  connection: { baseURL: url },
  disconnects: () => model.disconnects,
  log: (line) => console.log(line),
});
await server.stop(true);
process.exit(failed === 0 ? 0 : 1);
