// Stream decoding throughput. A child process serves 20,000-event streams in each wire format
// (Anthropic, OpenAI Chat Completions, OpenAI Responses, Gemini); this process reads them with (1) a
// raw baseline: fetch + eventsource-parser + JSON.parse and nothing else, (2) Wisp's streamTurn,
// (3) the official @anthropic-ai/sdk and openai clients where there is one (no Gemini client is
// installed). Ratios are measured in the same run.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { createParser } from "eventsource-parser";
import OpenAI from "openai";
import { streamTurn } from "wisp-agent";
import { median } from "./stats.mjs";

const EVENTS = 20_000;
const ROUNDS = 11;
let base;

const hello = [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }];
const paths = {
  anthropic: "/v1/messages",
  openai: "/v1/chat/completions",
  responses: "/v1/responses",
  gemini: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
};
const MODELS = {
  anthropic: { model: "anthropic/claude-sonnet-5-5", path: "" },
  openai: { model: "openai/gpt-4o", path: "/v1" },
  responses: { model: "openai-responses/gpt-5", path: "/v1" },
  gemini: { model: "google/gemini-2.5-flash", path: "/v1beta" },
};

async function raw(kind) {
  const response = await fetch(base + paths[kind], { method: "POST", body: "{}" });
  let count = 0;
  const parser = createParser({
    onEvent(event) {
      if (event.data !== "[DONE]") JSON.parse(event.data);
      count++;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  return count;
}

async function wisp(kind) {
  const options = { model: MODELS[kind].model, baseURL: base + MODELS[kind].path, apiKey: "k" };
  const turn = streamTurn({ messages: hello }, options);
  let count = 0;
  for await (const event of turn) if (event.type === "text-delta") count++;
  const message = await turn.message;
  if (message.error) throw new Error(message.error.message);
  return count;
}

async function official(kind) {
  let count = 0;
  if (kind === "anthropic") {
    const client = new Anthropic({ apiKey: "k", baseURL: base, maxRetries: 0 });
    const stream = await client.messages.create({
      model: "claude-sonnet-5-5",
      max_tokens: 10,
      stream: true,
      messages: [{ role: "user", content: "go" }],
    });
    for await (const event of stream) if (event.type === "content_block_delta") count++;
  } else if (kind === "responses") {
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, maxRetries: 0 });
    const stream = await client.responses.create({ model: "gpt-5", stream: true, input: "go" });
    for await (const event of stream) if (event.type === "response.output_text.delta") count++;
  } else {
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: "gpt-4o",
      stream: true,
      messages: [{ role: "user", content: "go" }],
    });
    for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) count++;
  }
  return count;
}

/**
 * Medians per reader. Rounds interleave the readers (in a rotating order) so that drift on a busy
 * machine — the server shares its cores — weighs on all of them alike.
 */
async function measureAll(readers, kind) {
  // Warm-up: three passes each, so the JIT has settled before the first measured round.
  for (let pass = 0; pass < 3; pass++) for (const [, fn] of readers) await fn(kind);
  const times = readers.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < readers.length; step++) {
      const index = (round + step) % readers.length;
      const start = performance.now();
      await readers[index][1](kind);
      times[index].push(performance.now() - start);
    }
  }
  return Object.fromEntries(readers.map(([name], index) => [name, median(times[index])]));
}

/** Measures decoding and returns the report section. */
export async function decodingSection() {
  const child = spawn(
    process.execPath,
    [new URL("./serve-streams.mjs", import.meta.url).pathname, String(EVENTS)],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  base = await new Promise((resolve) => child.stdout.once("data", (data) => resolve(String(data).trim())));

  const rows = [];
  for (const kind of ["anthropic", "openai", "responses", "gemini"]) {
    const readers = [
      ["raw baseline", raw],
      ["wisp-agent streamTurn", wisp],
    ];
    if (kind !== "gemini") readers.push([kind === "anthropic" ? "@anthropic-ai/sdk" : "openai", official]);
    const results = await measureAll(readers, kind);
    const baseline = results["raw baseline"];
    for (const [name, ms] of Object.entries(results)) {
      rows.push({ kind, name, ms, eventsPerSecond: Math.round((EVENTS / ms) * 1000), ratio: ms / baseline });
    }
  }
  child.stdin.end();

  const versions = {
    anthropic: JSON.parse(
      readFileSync(new URL("../node_modules/@anthropic-ai/sdk/package.json", import.meta.url)),
    ).version,
    openai: JSON.parse(readFileSync(new URL("../node_modules/openai/package.json", import.meta.url))).version,
  };
  const table = rows
    .map(
      (r) =>
        `| ${r.kind} | ${r.name} | ${r.ms.toFixed(1)} | ${r.eventsPerSecond.toLocaleString("en")} | ${r.ratio.toFixed(2)}x |`,
    )
    .join("\n");
  return `## Stream decoding: ${EVENTS.toLocaleString("en")} text-delta events over loopback HTTP

Served by a separate process in 16 KB writes (@anthropic-ai/sdk ${versions.anthropic}, openai ${versions.openai});
median of ${ROUNDS} interleaved rounds after three warm-up passes. "Time / raw" is the ratio to the raw baseline (fetch +
eventsource-parser + JSON.parse per event, nothing else) in the same run. Targets: Wisp within 1.3x of
raw, and faster than the official clients. "openai" for the responses format is \`client.responses.create\`.
Gemini has no official client here (\`@google/genai\` is not installed).

| format | reader | ms | events/s | time / raw |
|---|---|---:|---:|---:|
${table}
`;
}
