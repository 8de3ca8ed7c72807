// One reader, alone in this process (bench/decoding-honest.mjs starts one process per reader, shape
// and repetition). Reads the stream at `url` WARMUP times untimed (the first read is checked against
// the expected text and arguments), then TIMED times, each measured as this process's own CPU time
// (`process.cpuUsage()`: user + system, all of its threads, so its garbage collection counts) and as
// wall time. Only the reader's own modules are loaded. Prints one JSON line: { cpu, wall } in ms.
//   node bench/decoding-honest-reader.mjs <reader> <api> <url> <warmup> <timed> <sha256 of expected>
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { finishTurn, TAKE, takeWisp } from "./realistic-streams.mjs";

const [readerName, api, url, warmupText, timedText, expected] = process.argv.slice(2);
const WARMUP = Number(warmupText);
const TIMED = Number(timedText);

const empty = () => ({ text: "", args: "", thinking: "" });
const hello = [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }];

async function makeReader() {
  if (readerName === "raw") {
    const { readRaw } = await import("./raw-reader.mjs");
    return async () => readRaw(await fetch(url, { method: "POST", body: "{}" }), api, empty());
  }
  if (readerName === "wisp-for-await" || readerName === "wisp-on-event") {
    // BENCH_HONEST_WISP=/path/to/other/dist/src/index.js measures another build (for an A/B of a change).
    const { streamTurn } = await import(process.env.BENCH_HONEST_WISP ?? "wisp-agent");
    const base = url.slice(0, url.indexOf("/v1/"));
    const options =
      api === "anthropic"
        ? { model: "anthropic/claude-sonnet-5-5", baseURL: base, apiKey: "k" }
        : { model: "openai/gpt-4o", baseURL: `${base}/v1`, apiKey: "k" };
    const on = takeWisp;
    const finish = finishTurn;
    if (readerName === "wisp-for-await")
      return async () => {
        const out = empty();
        const turn = streamTurn({ messages: hello }, options);
        const handle = on(out);
        for await (const event of turn) handle(event);
        return finish(turn, out);
      };
    return async () => {
      const out = empty();
      return finish(streamTurn({ messages: hello }, { ...options, onEvent: on(out) }), out);
    };
  }
  if (readerName === "official") {
    const base = url.slice(0, url.indexOf("/v1/"));
    if (api === "anthropic") {
      const { default: Anthropic } = await import("@anthropic-ai/sdk");
      return async () => {
        const out = empty();
        const client = new Anthropic({ apiKey: "k", baseURL: base, maxRetries: 0 });
        const stream = await client.messages.create({
          model: "claude-sonnet-5-5",
          max_tokens: 10,
          stream: true,
          messages: [{ role: "user", content: "go" }],
        });
        for await (const event of stream) TAKE.anthropic(event, out);
        return out;
      };
    }
    const { default: OpenAI } = await import("openai");
    return async () => {
      const out = empty();
      const client = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: "gpt-4o",
        stream: true,
        messages: [{ role: "user", content: "go" }],
      });
      for await (const chunk of stream) TAKE.openai(chunk, out);
      return out;
    };
  }
  throw new Error(`unknown reader ${readerName}`);
}

/** The digest the orchestrator computed from raw decoding of the same body. */
export const digest = (out) =>
  createHash("sha256")
    .update(JSON.stringify([out.text, out.args, out.thinking]))
    .digest("hex");

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const read = await makeReader();
  const first = await read();
  if (digest(first) !== expected)
    throw new Error(`${readerName} decoded ${url} differently from the raw baseline`);
  for (let call = 1; call < WARMUP; call++) await read();
  const cpu = [];
  const wall = [];
  for (let call = 0; call < TIMED; call++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    await read();
    const wallMs = performance.now() - wallStart;
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    wall.push(wallMs);
  }
  process.stdout.write(`${JSON.stringify({ cpu, wall })}\n`);
}
