/**
 * Serves the browser example on loopback: the page, the built ES modules it imports (dist/, zod,
 * eventsource-parser), and the scripted model on the same origin (`/v1/messages`, plus
 * `/disconnects`). Each load of the page starts a fresh scripted model.
 *
 * Run: npm run build && node examples/browser/serve.mjs   (then open the printed URL)
 */
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { serveHandler } from "wisp-agent/testing/node";
import { createScenarioModel } from "../shared/scenario.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The only folders the page may load from. */
const SERVED = [
  "dist/",
  "examples/browser/",
  "examples/shared/",
  "node_modules/zod/",
  "node_modules/eventsource-parser/",
];
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json",
};

const PAGE = "/examples/browser/";
let model = createScenarioModel();

/** @param {URL} url */
async function staticFile(url) {
  const path = normalize(decodeURIComponent(url.pathname)).slice(1);
  if (path.includes(`..${sep}`) || !SERVED.some((prefix) => path.startsWith(prefix))) {
    return new Response("Not found", { status: 404 });
  }
  try {
    const body = await readFile(join(root, path));
    return new Response(body, {
      headers: { "content-type": TYPES[extname(path)] ?? "application/octet-stream" },
    });
  } catch {
    return new Response("Not found", { status: 404 });
  }
}

const server = await serveHandler(async (request) => {
  const url = new URL(request.url);
  if (url.pathname === "/v1/messages") return model.handle(request);
  if (url.pathname === "/disconnects") return Response.json({ disconnects: model.disconnects });
  if (url.pathname === "/") return Response.redirect(new URL(PAGE, url), 302);
  if (url.pathname === PAGE) {
    model = createScenarioModel();
    return staticFile(new URL("index.html", url));
  }
  return staticFile(url);
});
console.log(`browser example on ${server.url}/`);
const stop = () => server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
