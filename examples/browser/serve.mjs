/**
 * Serves the browser example on loopback: the page, the built ES modules it imports (dist/ and zod)
 * and the scripted model on the same origin (`/v1/messages`, plus `/disconnects`). Each load of the
 * page starts a fresh scripted model.
 *
 * Run: npm run build && node examples/browser/serve.mjs   (then open the printed URL)
 */
import { fileURLToPath } from "node:url";
import { serveHandler } from "wisp-agent/testing/node";
import { createScenarioModel } from "../shared/scenario.js";
import { staticFiles } from "../shared/static-files.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The only folders the page may load from. */
const staticFile = staticFiles(root, ["dist/", "examples/browser/", "examples/shared/", "node_modules/zod/"]);

const PAGE = "/examples/browser/";
let model = createScenarioModel();

const server = await serveHandler(async (request) => {
  const url = new URL(request.url);
  if (url.pathname === "/v1/messages") return model.handle(request);
  if (url.pathname === "/disconnects") return Response.json({ disconnects: model.disconnects });
  if (url.pathname === "/") return Response.redirect(new URL(PAGE, url), 302);
  if (url.pathname === PAGE) {
    model = createScenarioModel();
    return staticFile(`${PAGE}index.html`);
  }
  return staticFile(url.pathname);
});
console.log(`browser example on ${server.url}/`);
const stop = () => server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
