// Stream decoding, measured so that readers cannot shift costs onto each other (issue 38, part 2).
// Each reader runs alone in a fresh Node process (bench/decoding-honest-reader.mjs): 20 warm-up calls,
// then 40 timed calls, each timed as that process's own CPU time (`process.cpuUsage()`, all its
// threads, so the garbage it makes is collected on its own account), then 5 calls whose result is
// held to weigh the heap it keeps. PROCESSES processes per reader and shape, started one at a time
// with the readers' order rotated each repetition, so a slow spell of the machine falls on all
// readers. The streams are served over loopback HTTP by this process (not the client's), in 16 KB
// writes, so every reader pays for the same real socket and `fetch`.
// Reported per reader: the median of the per-process medians, their min–max (the spread), and the
// ratio of that median to raw's; the retained heap likewise; and CPU per event at 2,000, 20,000 and
// 200,000 events (linearity).
//   raw              fetch + TextDecoder + eventsource-parser + JSON.parse + concatenation
//   Wisp for await   streamTurn iterated with for await
//   Wisp onEvent     streamTurn with a callback per event
//   official         @anthropic-ai/sdk / openai (chat completions, responses), a new client per call
// Settings (environment):
//   BENCH_HONEST_SHAPES="anthropic text;anthropic tool 2,000"  these shapes only, ";" between (default:
//                                 all, about 16 minutes on 2 cores)
//   BENCH_HONEST_PROCESSES=9      processes per reader and shape
//   BENCH_HONEST_READERS="raw;wisp-on-event"  these readers only (raw, wisp-for-await, wisp-on-event,
//                                 official)
//   BENCH_HONEST_WISP=<path>      another build's dist/src/index.js measured as Wisp
//   BENCH_HONEST_BUILDS="nq=<path>;st=<path>"  adds each build's two readers ("nq for await", "nq
//                                 onEvent"), rotated with the others (an A/B of a change in one run)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { createParser } from "eventsource-parser";
import { digest } from "./decoding-honest-reader.mjs";
import { PATHS, SCENARIOS, TAKE } from "./realistic-streams.mjs";
import { median } from "./stats.mjs";
import { writeStream } from "./stream-response.mjs";

const CALLS = { warmup: 20, timed: 40, held: 5 };
/** The 200,000-event stream takes 10 times a 20,000-event one per call: fewer calls, as many events. */
const LONG_CALLS = { warmup: 4, timed: 8, held: 5 };
const PROCESSES = Number(process.env.BENCH_HONEST_PROCESSES ?? 9);
const NODE = new URL("../node_modules/.bin/node", import.meta.url).pathname;
const READER = new URL("./decoding-honest-reader.mjs", import.meta.url).pathname;

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

/** A shape of realistic-streams.mjs as it stands: `count` events of scenario `name`. */
const scenario = (name, count) => () => {
  const { api, body } = SCENARIOS[name](count);
  return { api, body };
};

/**
 * The shapes: name → () → { api, body }. The linearity shapes (`events` set) are "anthropic text" at
 * other lengths, read by raw and Wisp only.
 */
export const SHAPES = {
  "anthropic text": scenario("anthropic text", 20_000),
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
  "anthropic tool 2,000": scenario("anthropic tool", 2_000),
  "openai chat tool 2,000": scenario("openai chat tool", 2_000),
  "responses text": scenario("responses text", 20_000),
  "responses tool 2,000": scenario("responses tool", 2_000),
  "gemini text": scenario("gemini text", 20_000),
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
  "anthropic text 2,000": () => ({ ...scenario("anthropic text", 2_000)(), events: 2_000 }),
  "anthropic text 200,000": () => ({
    ...scenario("anthropic text", 200_000)(),
    events: 200_000,
    calls: LONG_CALLS,
  }),
};

/** The linearity rows: event count → the shape measured at it. */
const LINEAR = [
  [2_000, "anthropic text 2,000"],
  [20_000, "anthropic text"],
  [200_000, "anthropic text 200,000"],
];

/** The readers of a shape of `api`: { reader, label, env }. */
function readersOf(api, linearity) {
  const wanted = process.env.BENCH_HONEST_READERS?.split(";").map((name) => name.trim());
  const list = [
    { reader: "raw", label: "raw" },
    { reader: "wisp-for-await", label: "Wisp for await" },
    { reader: "wisp-on-event", label: "Wisp onEvent" },
  ];
  const official = { anthropic: "@anthropic-ai/sdk", openai: "openai", responses: "openai" }[api];
  if (official !== undefined && !linearity) list.push({ reader: "official", label: official });
  const selected = list.filter((entry) => wanted === undefined || wanted.includes(entry.reader));
  for (const build of process.env.BENCH_HONEST_BUILDS?.split(";") ?? []) {
    const [name, path] = build.split("=");
    selected.push(
      { reader: "wisp-for-await", label: `${name} for await`, env: { BENCH_HONEST_WISP: path } },
      { reader: "wisp-on-event", label: `${name} onEvent`, env: { BENCH_HONEST_WISP: path } },
    );
  }
  return selected;
}

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

/** One process of one reader: its per-call CPU and wall times in ms, and its retained heaps in bytes. */
function runProcess({ reader, env }, shape, url) {
  const { warmup, timed, held } = shape.calls;
  const args = [reader, shape.api, url, warmup, timed, held, shape.expected].map(String);
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, ["--expose-gc", READER, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env },
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

/** The median over processes of `pick` (one number per process), with the min and max. */
function spread(list, pick) {
  const values = list.map(pick);
  return { value: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Runs every reader of `shape` PROCESSES times, rotated; per reader its statistics. */
async function measure(shape, base, log) {
  const perProcess = shape.readers.map(() => []);
  for (let repetition = 0; repetition < PROCESSES; repetition++) {
    for (let step = 0; step < shape.readers.length; step++) {
      const index = (repetition + step) % shape.readers.length;
      const { cpu, wall, heap } = await runProcess(shape.readers[index], shape, base + shape.path);
      perProcess[index].push({
        cpu: median(cpu),
        cpuMean: mean(cpu),
        wall: median(wall),
        heap: median(heap),
      });
    }
    log(`${shape.name} ${repetition + 1}/${PROCESSES}`);
  }
  return perProcess.map((list) => ({
    cpu: spread(list, (entry) => entry.cpu),
    cpuMean: median(list.map((entry) => entry.cpuMean)),
    wall: median(list.map((entry) => entry.wall)),
    heap: spread(list, (entry) => entry.heap),
  }));
}

const verdict = (stat, raw) => {
  if (stat === raw) return "";
  if (stat.max < raw.min) return "faster, beyond spread";
  if (stat.min > raw.max) return "slower, beyond spread";
  return "within spread";
};

const range = (stat, digits, scale = 1) =>
  `${(stat.value * scale).toFixed(digits)} (${(stat.min * scale).toFixed(digits)}–${(stat.max * scale).toFixed(digits)})`;

/** The main table's rows, and the shapes where a Wisp reader misses the issue's goals. */
function mainTable(rows) {
  const misses = [];
  const lines = rows.flatMap(({ shape, stats }) =>
    stats.map((stat, index) => {
      const raw = stats[0];
      const { label } = shape.readers[index];
      const ratio = stat.cpu.value / raw.cpu.value;
      const heapRatio = stat.heap.value / raw.heap.value;
      const goal = { "Wisp for await": 1.15, "Wisp onEvent": 1.05 }[label];
      if (goal !== undefined && ratio > goal) misses.push(`${shape.name}: ${label} ${ratio.toFixed(2)}x CPU`);
      if (goal !== undefined && heapRatio > 1.5)
        misses.push(`${shape.name}: ${label} ${heapRatio.toFixed(2)}x heap`);
      return `| ${shape.name} | ${label} | ${range(stat.cpu, 2)} | ${ratio.toFixed(2)}x | ${verdict(stat.cpu, raw.cpu)} | ${stat.cpuMean.toFixed(2)} | ${(stat.cpuMean / raw.cpuMean).toFixed(2)}x | ${stat.wall.toFixed(2)} | ${range(stat.heap, 0, 1 / 1024)} | ${heapRatio.toFixed(2)}x |`;
    }),
  );
  return { table: lines.join("\n"), misses };
}

/** The linearity table: µs of CPU per event at each length, per reader, and 200,000 against 2,000. */
function linearTable(rows) {
  const byName = new Map(rows.map((row) => [row.shape.name, row]));
  const present = LINEAR.filter(([, name]) => byName.has(name));
  if (present.length === 0) return "";
  const labels = byName.get(present[0][1]).shape.readers.map((reader) => reader.label);
  const perEvent = (count, name, label) => {
    const row = byName.get(name);
    const stat = row.stats[row.shape.readers.findIndex((reader) => reader.label === label)].cpu;
    return { value: stat.value / count, min: stat.min / count, max: stat.max / count };
  };
  const lines = labels.map((label) => {
    const cells = present.map(([count, name]) => perEvent(count, name, label));
    const first = cells[0];
    const last = cells[cells.length - 1];
    return `| ${label} | ${cells.map((cell) => range(cell, 3, 1000)).join(" | ")} | ${(last.value / first.value).toFixed(2)}x |`;
  });
  const head = present.map(([count]) => `${count.toLocaleString("en")} events`);
  return `| reader | ${head.join(" | ")} | last / first |
|---|${head.map(() => "---:|").join("")}---:|
${lines.join("\n")}`;
}

/** Measures every reader in separate processes and returns the report section. */
export async function decodingHonestSection() {
  const wanted = process.env.BENCH_HONEST_SHAPES;
  const names = wanted?.split(";").map((name) => name.trim()) ?? Object.keys(SHAPES);
  const shapes = names.map((name) => {
    if (SHAPES[name] === undefined) throw new Error(`no shape "${name}"`);
    const { api, body, events, calls = CALLS } = SHAPES[name]();
    const path = `/${slug(name)}${PATHS[api]}`;
    const readers = readersOf(api, events !== undefined);
    return { name, api, path, calls, readers, body: Buffer.from(body), expected: expectedDigest(api, body) };
  });
  const { server, base } = await serve(new Map(shapes.map((shape) => [shape.path, shape.body])));
  const started = performance.now();
  const loads = [loadavg()[0]];
  const log = (text) => {
    loads.push(loadavg()[0]);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stderr.write(`decoding-honest: ${text} (${seconds} s, load ${loads.at(-1).toFixed(2)})\n`);
  };
  const rows = [];
  try {
    for (const shape of shapes) rows.push({ shape, stats: await measure(shape, base, log) });
  } finally {
    server.close();
  }
  const minutes = (performance.now() - started) / 60_000;
  const version = (pkg) =>
    JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url))).version;
  const linearNames = new Set(LINEAR.map(([, name]) => name).filter((name) => name !== "anthropic text"));
  const { table, misses } = mainTable(rows.filter((row) => !linearNames.has(row.shape.name)));
  const sizes = rows
    .map(({ shape }) => `${shape.name} ${(shape.body.length / 1024).toFixed(0)} KB`)
    .join(", ");
  const { warmup, timed, held } = CALLS;
  return `## Stream decoding, each reader alone in its own process

Each reader runs alone in a fresh Node ${process.versions.node.split(".")[0]} process (bench/decoding-honest.mjs,
bench/decoding-honest-reader.mjs), so no reader pays for another's garbage: ${warmup} warm-up calls (the
first checked against raw decoding of the same body), then ${timed} timed calls, each measured as the
process's own CPU time (\`process.cpuUsage()\`, user + system of all its threads, garbage collection
included), then ${held} calls whose result is held to weigh it. ${PROCESSES} processes per reader and shape, run one
at a time, the readers' order rotated each repetition. The streams come over loopback HTTP from the
benchmark's own process (not the client's), in 16 KB writes, so each reader pays for the same socket
and \`fetch\`.
Shapes: "anthropic text" is the recording-shaped stream of the sections above (20,000 events, mixed
ASCII/accented/CJK/emoji words); "short ascii" streams have 20,000 deltas of 4–10 ASCII characters
(the OpenAI chunks carry no obfuscation field); "tool 2,000" streams carry one tool call in 2,000
argument fragments; "responses text" and "gemini text" are 20,000-event streams of those APIs as
recorded (the Responses deltas with their obfuscation field); "long deltas" 2,000 deltas of 400–1,200
ASCII characters; "tiny events" 50,000 deltas of one character; "thinking" the thinking recording
with 18,000 thinking deltas (the words of "anthropic text"), its signature, then 2,000 short ASCII
text deltas. Bodies: ${sizes}.
@anthropic-ai/sdk ${version("@anthropic-ai/sdk")}, openai ${version("openai")}, eventsource-parser ${version("eventsource-parser")} (Gemini has no official client here); ${cpus().length} cores,
load (1-minute average) ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} during the run, ${minutes.toFixed(1)} minutes.

CPU ms per call: the median of the ${PROCESSES} per-process medians, and in brackets their min–max.
"/ raw" divides that median by raw's. "vs raw" compares the spreads: beyond spread only when the two
min–max ranges do not overlap. The mean columns use each process's mean over its ${timed} calls instead
of its median (so a collection that falls in a few calls still counts), median over processes. Wall is
the median of the per-process median wall times, for reference: the server shares the cores.
Retained heap: what the reader keeps of the turn once it is over, as \`heapUsed\` after a forced full
collection while the result is held, less the same once it is dropped (median of ${held} calls per process,
then median and min–max over processes). Raw and the official clients keep the text, thinking and
arguments they concatenated (ropes of the deltas, never flattened); Wisp keeps its message
(\`turn.message\`: the text and thinking as strings, the tool call's arguments parsed into an object),
not the copy the benchmark's own handler concatenated from the events.

| stream | reader | CPU ms (min–max) | / raw | vs raw | mean CPU ms | / raw | wall ms | retained KB (min–max) | / raw |
|---|---|---:|---:|---|---:|---:|---:|---:|---:|
${table}

Against issue 38's goals (\`for await\` ≤ 1.15× raw, \`onEvent\` ≤ 1.05× raw in CPU, retained heap
≤ 1.5× raw): ${misses.length === 0 ? "met on every shape." : `missed on ${misses.join("; ")}.`}

Linearity: CPU µs per event (median, min–max over the ${PROCESSES} processes) on "anthropic text" at three
lengths; the 200,000-event stream takes ${LONG_CALLS.warmup} warm-up and ${LONG_CALLS.timed} timed calls per process (as many
events as the others' calls). "last / first" is the per-event cost at the longest against the shortest.

${linearTable(rows)}
`;
}
