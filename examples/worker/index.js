/**
 * The portability scenario in a Cloudflare Worker (workerd): every request runs it against the
 * scripted model in-process (a deployed Worker cannot reach a loopback server) and answers with the
 * report, status 200 when every check passed and 500 otherwise. No `nodejs_compat` flag: the SDK
 * needs nothing from Node.
 *
 * Run: npm run build && npx wrangler dev -c examples/worker/wrangler.toml, then curl the printed URL.
 */
import { createScenarioModel, runScenario } from "../shared/scenario.js";

export default {
  async fetch() {
    const model = createScenarioModel();
    const lines = ["workerd, scripted model in-process"];
    const failed = await runScenario({
      connection: { fetch: model.fetch },
      disconnects: () => model.disconnects,
      log: (line) => lines.push(line),
    });
    return new Response(`${lines.join("\n")}\n`, {
      status: failed === 0 ? 200 : 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  },
};
