/**
 * Serves the bridge examples on loopback: the page where an agent runs in a Web Worker
 * (`/examples/bridge/`), the scenario page (`/examples/bridge/scenario.html`), and the built ES
 * modules the pages import through their import map. Browsers do not give a module worker the page's
 * import map, so the worker script is bundled (esbuild) when it is requested — as an app's bundler
 * would do it.
 *
 * Run: npm run build && node examples/bridge/serve.mjs   (then open the printed URL)
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { serveHandler } from "wisp-agent/testing/node";
import { JAVASCRIPT, staticFiles } from "../shared/static-files.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The only folders the pages may load from. */
const staticFile = staticFiles(root, ["dist/", "examples/bridge/", "examples/shared/page-outcome.js"]);
const PAGE = "/examples/bridge/";
const WORKER = "/examples/bridge/agent-worker.js";

/** The worker script, bundled for the browser (its Node-only branch left out). */
async function workerBundle() {
  const bundled = await build({
    entryPoints: [join(root, "examples/bridge/agent-worker.js")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: ["node:*"],
    write: false,
    logLevel: "silent",
  });
  return new Response(bundled.outputFiles[0]?.text ?? "", { headers: { "content-type": JAVASCRIPT } });
}

const server = await serveHandler(async (request) => {
  const url = new URL(request.url);
  if (url.pathname === "/") return Response.redirect(new URL(PAGE, url), 302);
  if (url.pathname === PAGE) return staticFile(`${PAGE}index.html`);
  if (url.pathname === WORKER) return workerBundle();
  return staticFile(url.pathname);
});
console.log(`bridge example on ${server.url}/`);
const stop = () => server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
