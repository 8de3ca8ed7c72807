// A separate process that serves the realistic streams (bench/realistic-streams.mjs) on 127.0.0.1,
// written in 16 KB chunks as a real server flushes them (so multi-byte characters split across
// chunks). `/<scenario>/<count>` + the API's own path answers that scenario at that length; bodies are
// built on first request and kept. Prints its URL, then serves until stdin closes.
import { createServer } from "node:http";
import { PATHS, SCENARIOS } from "./realistic-streams.mjs";
import { writeStream } from "./stream-response.mjs";

const bodies = new Map();

function bodyFor(url) {
  const match = /^\/([a-z-]+)\/(\d+)(\/.*)$/.exec(url);
  if (match === null) return undefined;
  const [, slug, count, path] = match;
  const key = `${slug}/${count}`;
  if (!bodies.has(key)) {
    const make = SCENARIOS[slug.replaceAll("-", " ")];
    if (make === undefined) return undefined;
    const scenario = make(Number(count));
    if (PATHS[scenario.api] !== path) return undefined;
    bodies.set(key, Buffer.from(scenario.body));
  }
  return bodies.get(key);
}

const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const body = bodyFor(request.url);
    if (!body) return response.writeHead(404).end();
    writeStream(response, body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
process.stdin.on("end", () => server.close(() => process.exit(0)));
process.stdin.resume();
