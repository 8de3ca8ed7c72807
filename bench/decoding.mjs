// Stream decoding on streams shaped like the recordings (bench/realistic-streams.mjs), served by a
// separate process over loopback HTTP. Every reader does what a consumer must: it reads every event
// and concatenates the text and the tool-call arguments.
//   raw        fetch + eventsource-parser + JSON.parse + concatenation, nothing else
//   Wisp       streamTurn iterated with for await
//   Wisp cb    streamTurn with onEvent (a callback per event, no iterator)
//   official   @anthropic-ai/sdk / openai, where one exists (none for Gemini is installed)
// At warm-up each reader's text and arguments are checked against raw's, so a reader that decodes
// wrongly fails the bench instead of looking fast.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { streamTurn } from "wisp-agent";
import { readRaw } from "./raw-reader.mjs";
import { SCENARIOS, takeOfficial } from "./realistic-streams.mjs";
import { median, quantile } from "./stats.mjs";

const EVENTS = 20_000;
const ROUNDS = 21;
const LINEAR_COUNTS = [2_000, 20_000, 200_000];
let base;

const hello = [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }];
const API_PATHS = {
  anthropic: "/v1/messages",
  openai: "/v1/chat/completions",
  responses: "/v1/responses",
  gemini: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
};
const WISP = {
  anthropic: { model: "anthropic/claude-sonnet-5-5", path: "" },
  openai: { model: "openai/gpt-4o", path: "/v1" },
  responses: { model: "openai-responses/gpt-5", path: "/v1" },
  gemini: { model: "google/gemini-2.5-flash", path: "/v1beta" },
};

const prefix = (name, count) => `${base}/${name.replaceAll(" ", "-")}/${count}`;

async function raw(name, count, api) {
  const response = await fetch(prefix(name, count) + API_PATHS[api], { method: "POST", body: "{}" });
  return readRaw(response, api, { text: "", args: "" });
}

/**
 * Raw, then `JSON.parse` of the whole arguments: the least a consumer that runs the tool must add, and
 * what Wisp does when the call closes (shown beside raw; the ratios stay against raw).
 */
async function rawParsed(name, count, api) {
  const out = await raw(name, count, api);
  out.input = JSON.parse(out.args);
  return out;
}

function wispOptions(name, count, api) {
  return { model: WISP[api].model, baseURL: prefix(name, count) + WISP[api].path, apiKey: "k" };
}

async function finish(turn, out) {
  const message = await turn.message;
  if (message.error) throw new Error(message.error.message);
  out.message = message;
  return out;
}

async function wispIterated(name, count, api) {
  const turn = streamTurn({ messages: hello }, wispOptions(name, count, api));
  const out = { text: "", args: "" };
  for await (const event of turn) {
    if (event.type === "text-delta") out.text += event.delta;
    else if (event.type === "tool-call-delta" && event.index === firstToolIndex(out, event))
      out.args += event.delta;
  }
  return finish(turn, out);
}

async function wispCallback(name, count, api) {
  const out = { text: "", args: "" };
  const turn = streamTurn(
    { messages: hello },
    {
      ...wispOptions(name, count, api),
      onEvent(event) {
        if (event.type === "text-delta") out.text += event.delta;
        else if (event.type === "tool-call-delta" && event.index === firstToolIndex(out, event))
          out.args += event.delta;
      },
    },
  );
  return finish(turn, out);
}

/** The content index of the first tool call a reader saw (the raw reader keeps only that one too). */
function firstToolIndex(out, event) {
  out.toolIndex ??= event.index;
  return out.toolIndex;
}

async function official(name, count, api) {
  return takeOfficial(api, prefix(name, count), { Anthropic, OpenAI }, { text: "", args: "" });
}

/** Throws unless `got` has exactly raw's text and arguments. */
function check(reader, name, got, want) {
  if (got.text !== want.text || got.args !== want.args) {
    throw new Error(`${reader} decoded ${name} differently from the raw baseline`);
  }
}

/**
 * Times per reader, rounds interleaved in a rotating order so that drift on a busy machine (the
 * server shares its cores) weighs on all readers alike. Three warm-up passes first, checked. `ratio`
 * is the median over rounds of the reader's time over raw's in the same round: a slow spell of the
 * machine then weighs on both sides of each ratio instead of on whichever reader it hit.
 */
async function measureAll(readers, name, count, api, rounds) {
  const want = await raw(name, count, api);
  for (let pass = 0; pass < 3; pass++) {
    for (const [reader, fn] of readers) check(reader, name, await fn(name, count, api), want);
  }
  const times = readers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < readers.length; step++) {
      const index = (round + step) % readers.length;
      const start = performance.now();
      await readers[index][1](name, count, api);
      times[index].push(performance.now() - start);
    }
  }
  const raws = times[0] ?? [];
  return readers.map(([reader], index) => ({
    reader,
    ms: median(times[index]),
    p25: quantile(times[index], 0.25),
    p75: quantile(times[index], 0.75),
    ratio: median(times[index].map((ms, round) => ms / (raws[round] ?? ms))),
  }));
}

/** Heap still used after a reader's turn (after GC), with its result held: what the turn retains. */
async function retained(fn, name, count, api) {
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const result = await fn(name, count, api);
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  if (result.text === undefined) throw new Error("unreachable");
  return (after - before) / 1024 / 1024;
}

const officialName = (api) => (api === "anthropic" ? "@anthropic-ai/sdk" : "openai");

/** Measures decoding and returns the report section. */
export async function decodingSection() {
  const child = spawn(process.execPath, [new URL("./serve-streams.mjs", import.meta.url).pathname], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  base = await new Promise((resolve) => child.stdout.once("data", (data) => resolve(String(data).trim())));

  const rows = [];
  const memory = [];
  const linear = [];
  try {
    // BENCH_SCENARIOS="anthropic text,gemini text" measures only those (for profiling work).
    const only = process.env.BENCH_SCENARIOS?.split(",").map((name) => name.trim());
    for (const [name, make] of Object.entries(SCENARIOS)) {
      if (only !== undefined && !only.includes(name)) continue;
      const { api, kind } = make(10);
      const readers = [
        ["raw", raw],
        ...(kind === "tool" ? [["raw, arguments parsed", rawParsed]] : []),
        ["Wisp for await", wispIterated],
        ["Wisp onEvent", wispCallback],
      ];
      if (api !== "gemini") readers.push([officialName(api), official]);
      const results = await measureAll(readers, name, EVENTS, api, ROUNDS);
      rows.push({ name, results });
      const heap = {};
      for (const [reader, fn] of readers) {
        heap[reader === officialName(api) ? "official client" : reader] = await retained(
          fn,
          name,
          EVENTS,
          api,
        );
      }
      // What Wisp itself keeps: the message alone, the reader's own concatenations dropped.
      heap["Wisp, message alone"] = await retained(
        async (...args) => ({ text: "", message: (await wispCallback(...args)).message }),
        name,
        EVENTS,
        api,
      );
      memory.push({ name, heap });
      const perEvent = [];
      for (const count of LINEAR_COUNTS) {
        const pair = readers.filter(([reader]) => reader === "raw" || reader === "Wisp for await");
        const [rawResult, wispResult] = await measureAll(pair, name, count, api, 5);
        perEvent.push({ count, raw: (rawResult.ms * 1000) / count, wisp: (wispResult.ms * 1000) / count });
      }
      linear.push({ name, perEvent });
    }
  } finally {
    child.stdin.end();
  }

  const version = (pkg) =>
    JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url))).version;
  const cell = (result) =>
    `${result.ms.toFixed(1)} (${result.p25.toFixed(1)}–${result.p75.toFixed(1)}) | ${result.ratio.toFixed(2)}x`;
  const table = rows
    .flatMap(({ name, results }) =>
      results.map((result) => `| ${name} | ${result.reader} | ${cell(result)} |`),
    )
    .join("\n");
  const readersOf = [
    "raw",
    "raw, arguments parsed",
    "Wisp for await",
    "Wisp onEvent",
    "Wisp, message alone",
    "official client",
  ];
  const memoryTable = memory
    .map(({ name, heap }) => {
      const cells = readersOf.map((reader) => (heap[reader] === undefined ? "–" : heap[reader].toFixed(1)));
      return `| ${name} | ${cells.join(" | ")} | ${(heap["Wisp for await"] / heap.raw).toFixed(2)}x |`;
    })
    .join("\n");
  const linearTable = linear
    .map(
      ({ name, perEvent }) =>
        `| ${name} | ${perEvent.map((row) => `${row.wisp.toFixed(2)} / ${row.raw.toFixed(2)}`).join(" | ")} |`,
    )
    .join("\n");
  return `## Stream decoding: ${EVENTS.toLocaleString("en")}-event streams shaped like the recordings

Streams built from the recordings in \`../shared/fixtures\` (bench/realistic-streams.mjs): their framing
kept byte for byte (Anthropic's padding and pings, Gemini's spacing and \\r\\n, OpenAI's key order,
obfuscation and usage fields), with text of ASCII, accented, CJK and emoji words, quotes, backslashes
and newlines, served by a separate process in 16 KB writes (so multi-byte characters split across
chunks). "tool" streams carry one tool call whose arguments come in ${EVENTS.toLocaleString("en")} fragments.
Every reader concatenates the text and arguments, and is checked against raw at warm-up. On tool streams
"raw, arguments parsed" adds one \`JSON.parse\` of the whole arguments at the end: what any consumer
that runs the tool must add, and what Wisp does when the call closes (its \`tool-call\` event carries
the parsed arguments). Ratios are to plain raw.
@anthropic-ai/sdk ${version("@anthropic-ai/sdk")}, openai ${version("openai")}, eventsource-parser ${version("eventsource-parser")}.
Median of ${ROUNDS} interleaved rounds (p25–p75 in brackets) after three warm-up passes, in ms, and the
median of each round's ratio to raw (the reader's time over raw's in the same round, so a slow spell
of the machine weighs on both). Targets: Wisp for await ≤ 1.3x raw, onEvent ≤ 1.1x.

| stream | reader | ms (p25–p75) | time / raw |
|---|---|---:|---:|
${table}

Heap retained after one ${EVENTS.toLocaleString("en")}-event turn, in MB (after GC, with the reader's result held: the
concatenated strings, for "raw, arguments parsed" the parsed arguments too, and for Wisp the final
message, whose tool call holds the parsed arguments). Target: Wisp ≤ 1.5x raw, missed on tool streams.
"Wisp, message alone" is what Wisp itself keeps: the message, the reader's concatenations dropped
(less than raw keeps on every stream: a Wisp reader needs no concatenation of its own). On
tool streams Wisp's extra over raw is the parsed arguments (20,000 fragments' worth of small objects), which raw never builds;
"raw, arguments parsed" builds them too but stays near raw because \`JSON.parse\` flattens raw's
concatenated rope of fragments in place, while Wisp's reader keeps its rope as it was.

| stream | ${readersOf.join(" | ")} | Wisp / raw |
|---|${readersOf.map(() => "---:").join("|")}|---:|
${memoryTable}

Linearity: µs per event, Wisp for await / raw, median of 5 rounds at each length.

| stream | ${LINEAR_COUNTS.map((count) => count.toLocaleString("en")).join(" | ")} |
|---|${LINEAR_COUNTS.map(() => "---:").join("|")}|
${linearTable}
`;
}
