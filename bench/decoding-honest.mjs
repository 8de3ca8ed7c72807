// Stream decoding, measured so that readers cannot shift costs onto each other (issue 38, part 2).
// Each reader runs alone in a fresh Node process (bench/decoding-honest-reader.mjs): 20 warm-up calls,
// then 40 timed calls, each timed as that process's own CPU time (`process.cpuUsage()`, all its
// threads, so the garbage it makes is collected on its own account). PROCESSES processes per reader
// and shape, started one at a time with the readers' order rotated each repetition, so a slow spell of
// the machine falls on all readers. The streams are served over loopback HTTP by this process (not
// the client's), in 16 KB writes, so every reader pays for the same real socket and `fetch`.
// Reported per reader: the median of the per-process medians, their min–max (the spread), and the
// ratio of that median to raw's.
//   raw              fetch + TextDecoder + eventsource-parser + JSON.parse + concatenation
//   Wisp for await   streamTurn iterated with for await
//   Wisp onEvent     streamTurn with a callback per event
//   official         @anthropic-ai/sdk / openai (chat completions), a new client per call
// BENCH_HONEST_SHAPES="anthropic text;anthropic tool 2,000" picks shapes, separated by ";" (default:
// all, about 10 minutes on 2 cores); BENCH_HONEST_PROCESSES sets the processes per reader (default 9);
// BENCH_HONEST_WISP (a path to another build's dist/src/index.js) measures that build as Wisp.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { createParser } from "eventsource-parser";
import { digest } from "./decoding-honest-reader.mjs";
import { SCENARIOS, TAKE } from "./realistic-streams.mjs";
import { median } from "./stats.mjs";
import { writeStream } from "./stream-response.mjs";

const WARMUP = 20;
const TIMED = 40;
const PROCESSES = Number(process.env.BENCH_HONEST_PROCESSES ?? 9);
const NODE = new URL("../node_modules/.bin/node", import.meta.url).pathname;
const READER = new URL("./decoding-honest-reader.mjs", import.meta.url).pathname;
const PATH = { anthropic: "/v1/messages", openai: "/v1/chat/completions" };

/** A deterministic stream of numbers in [0, 1). */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** `count` ASCII deltas of `min` to `max` characters: a space, then letters, sometimes a full stop. */
function asciiPieces(count, min, max, seed = 7) {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = min + Math.floor(next() * (max - min + 1));
    let piece = " ";
    while (piece.length < length - 1) piece += LETTERS[Math.floor(next() * 26)];
    return piece + (next() < 0.1 ? "." : LETTERS[Math.floor(next() * 26)]);
  });
}

/** `body` with the string after each match of `prefix` (a regex source) replaced by the next piece. */
function replaceValues(body, prefix, pieces) {
  let index = 0;
  const out = body.replace(new RegExp(`(${prefix})"(?:[^"\\\\]|\\\\.)*"`, "g"), (_, head) => {
    if (index >= pieces.length) throw new Error("more deltas than pieces");
    return head + JSON.stringify(pieces[index++]);
  });
  if (index !== pieces.length) throw new Error(`${index} deltas for ${pieces.length} pieces`);
  return out;
}

const ANTHROPIC_TEXT = '"type":"text_delta","text":';
const OPENAI_TEXT = '"delta":\\{"content":';

/**
 * An Anthropic thinking stream from the recording: `thinking` thinking deltas (realistic words), the
 * signature, then `text` text deltas, framing and padding as recorded.
 */
function thinkingBody(thinking, text) {
  const recorded = readFileSync(
    new URL("../../shared/fixtures/anthropic/thinking-signature.sse", import.meta.url),
    "utf8",
  );
  const blocks = recorded.split("\n\n").filter((block) => block.trim() !== "");
  const words = SCENARIOS["anthropic text"](thinking).pieces;
  const short = asciiPieces(text, 4, 10, 11);
  const out = [];
  let thinkingDone = false;
  let textDone = false;
  for (const block of blocks) {
    if (/"thinking_delta","thinking":"[^"]/.test(block)) {
      if (!thinkingDone)
        for (const word of words) out.push(replaceValues(block, '"thinking_delta","thinking":', [word]));
      thinkingDone = true;
    } else if (block.includes(ANTHROPIC_TEXT)) {
      if (!textDone) for (const piece of short) out.push(replaceValues(block, ANTHROPIC_TEXT, [piece]));
      textDone = true;
    } else out.push(block);
  }
  return `${out.join("\n\n")}\n\n`;
}

/** The shapes: name → () → { api, body }. */
export const SHAPES = {
  "anthropic text": () => ({ api: "anthropic", body: SCENARIOS["anthropic text"](20_000).body }),
  "anthropic short ascii": () => ({
    api: "anthropic",
    body: replaceValues(SCENARIOS["anthropic text"](20_000).body, ANTHROPIC_TEXT, asciiPieces(20_000, 4, 10)),
  }),
  "openai chat short ascii": () => {
    const body = replaceValues(
      SCENARIOS["openai chat text"](20_000).body,
      OPENAI_TEXT,
      asciiPieces(20_000, 4, 10),
    );
    if (body.includes("obfuscation")) throw new Error("the chat stream carries obfuscation fields");
    return { api: "openai", body };
  },
  "anthropic tool 2,000": () => ({ api: "anthropic", body: SCENARIOS["anthropic tool"](2_000).body }),
  "openai chat tool 2,000": () => ({ api: "openai", body: SCENARIOS["openai chat tool"](2_000).body }),
  "anthropic long deltas": () => ({
    api: "anthropic",
    body: replaceValues(
      SCENARIOS["anthropic text"](2_000).body,
      ANTHROPIC_TEXT,
      asciiPieces(2_000, 400, 1_200, 13),
    ),
  }),
  "anthropic tiny events": () => ({
    api: "anthropic",
    body: replaceValues(
      SCENARIOS["anthropic text"](50_000).body,
      ANTHROPIC_TEXT,
      asciiPieces(50_000, 1, 1, 17),
    ),
  }),
  "anthropic thinking": () => ({ api: "anthropic", body: thinkingBody(18_000, 2_000) }),
};

const READERS = [
  ["raw", "raw"],
  ["wisp-for-await", "Wisp for await"],
  ["wisp-on-event", "Wisp onEvent"],
  ["official", "official"],
];

/** What raw decoding of `body` yields, decoded here (not timed), as the readers' digest. */
function expectedDigest(api, body) {
  const out = { text: "", args: "", thinking: "" };
  const parser = createParser({
    onEvent(event) {
      if (event.data !== "[DONE]") TAKE[api](JSON.parse(event.data), out);
    },
  });
  parser.feed(body);
  return digest(out);
}

const slug = (name) => name.replaceAll(/[^a-z0-9]+/g, "-");

/** Serves every shape's body on 127.0.0.1 at `/<slug>` + the API's path, in 16 KB writes. */
function serve(bodies) {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const body = bodies.get(request.url);
      if (body === undefined) return response.writeHead(404).end();
      writeStream(response, body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

/** One process of one reader: its per-call CPU and wall times, in ms. */
function runProcess(reader, api, url, expected) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [READER, reader, api, url, String(WARMUP), String(TIMED), expected], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (data) => {
      output += data;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`${reader} on ${url} exited ${code}`)),
    );
  });
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Measures every reader in separate processes and returns the report section. */
export async function decodingHonestSection() {
  const wanted = process.env.BENCH_HONEST_SHAPES;
  const names = wanted?.split(";").map((name) => name.trim()) ?? Object.keys(SHAPES);
  const shapes = names.map((name) => {
    if (SHAPES[name] === undefined) throw new Error(`no shape "${name}"`);
    const { api, body } = SHAPES[name]();
    const path = `/${slug(name)}${PATH[api]}`;
    return { name, api, path, body: Buffer.from(body), expected: expectedDigest(api, body) };
  });
  const { server, base } = await serve(new Map(shapes.map((shape) => [shape.path, shape.body])));
  const started = performance.now();
  const loadBefore = loadavg()[0];
  const rows = [];
  try {
    for (const shape of shapes) {
      const perProcess = READERS.map(() => []);
      for (let repetition = 0; repetition < PROCESSES; repetition++) {
        for (let step = 0; step < READERS.length; step++) {
          const index = (repetition + step) % READERS.length;
          const { cpu, wall } = await runProcess(
            READERS[index][0],
            shape.api,
            base + shape.path,
            shape.expected,
          );
          perProcess[index].push({ cpu: median(cpu), cpuMean: mean(cpu), wall: median(wall) });
        }
        process.stderr.write(
          `decoding-honest: ${shape.name} ${repetition + 1}/${PROCESSES} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
        );
      }
      const stats = perProcess.map((list) => {
        const cpus = list.map((entry) => entry.cpu);
        return {
          cpu: median(cpus),
          min: Math.min(...cpus),
          max: Math.max(...cpus),
          cpuMean: median(list.map((entry) => entry.cpuMean)),
          wall: median(list.map((entry) => entry.wall)),
        };
      });
      rows.push({ shape, stats });
    }
  } finally {
    server.close();
  }
  const minutes = (performance.now() - started) / 60_000;
  const version = (pkg) =>
    JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url))).version;
  const officialName = (api) => (api === "anthropic" ? "@anthropic-ai/sdk" : "openai");
  const verdict = (stats, raw) => {
    if (stats === raw) return "";
    if (stats.max < raw.min) return "faster, beyond spread";
    if (stats.min > raw.max) return "slower, beyond spread";
    return "within spread";
  };
  const table = rows
    .flatMap(({ shape, stats }) =>
      stats.map((stat, index) => {
        const reader = READERS[index][0] === "official" ? officialName(shape.api) : READERS[index][1];
        const raw = stats[0];
        return `| ${shape.name} | ${reader} | ${stat.cpu.toFixed(2)} (${stat.min.toFixed(2)}–${stat.max.toFixed(2)}) | ${(stat.cpu / raw.cpu).toFixed(2)}x | ${verdict(stat, raw)} | ${stat.cpuMean.toFixed(2)} | ${(stat.cpuMean / raw.cpuMean).toFixed(2)}x | ${stat.wall.toFixed(2)} |`;
      }),
    )
    .join("\n");
  const sizes = rows
    .map(({ shape }) => `${shape.name} ${(shape.body.length / 1024).toFixed(0)} KB`)
    .join(", ");
  return `## Stream decoding, each reader alone in its own process

Each reader runs alone in a fresh Node ${process.versions.node.split(".")[0]} process (bench/decoding-honest.mjs,
bench/decoding-honest-reader.mjs), so no reader pays for another's garbage: ${WARMUP} warm-up calls (the
first checked against raw decoding of the same body), then ${TIMED} timed calls, each measured as the
process's own CPU time (\`process.cpuUsage()\`, user + system of all its threads, garbage collection
included). ${PROCESSES} processes per reader and shape, run one at a time, the readers' order rotated
each repetition. The streams come over loopback HTTP from the benchmark's own process (not the
client's), in 16 KB writes, so each reader pays for the same socket and \`fetch\`.
Shapes: "anthropic text" is the recording-shaped stream of the sections above (20,000 events, mixed
ASCII/accented/CJK/emoji words); "short ascii" streams have 20,000 deltas of 4–10 ASCII characters
(the OpenAI chunks carry no obfuscation field); "tool 2,000" streams carry one tool call in 2,000
argument fragments; "long deltas" 2,000 deltas of 400–1,200 ASCII characters; "tiny events" 50,000
deltas of one character; "thinking" the thinking recording with 18,000 thinking deltas (the words
of "anthropic text"), its signature, then 2,000 short ASCII text deltas. Bodies: ${sizes}.
@anthropic-ai/sdk ${version("@anthropic-ai/sdk")}, openai ${version("openai")}, eventsource-parser ${version("eventsource-parser")}; ${cpus().length} cores, load ${loadBefore.toFixed(2)} at the start
(1-minute average), ${minutes.toFixed(1)} minutes.

CPU ms per call: the median of the ${PROCESSES} per-process medians, and in brackets their min–max.
"/ raw" divides that median by raw's. "vs raw" compares the spreads: beyond spread only when the two
min–max ranges do not overlap. The mean columns use each process's mean over its ${TIMED} calls instead
of its median (so a collection that falls in a few calls still counts), median over processes. Wall is
the median of the per-process median wall times, for reference: the server shares the cores.

| stream | reader | CPU ms (min–max) | / raw | vs raw | mean CPU ms | / raw | wall ms |
|---|---|---:|---:|---|---:|---:|---:|
${table}
`;
}
