// One reader, alone in this process (bench/decoding-honest.mjs starts one process per reader, shape
// and repetition). Reads the stream at `url` WARMUP times untimed (the first read is checked against
// the expected text and arguments), then TIMED times, each measured as this process's own CPU time
// (`process.cpuUsage()`: user + system, all of its threads, so its garbage collection counts) and as
// wall time. Then HELD more times for the retained heap: what the reader keeps of the turn once it is
// over (raw and the official clients the text and arguments they built, Wisp its message), measured
// as the heap used after a full collection while it is held, less the heap used after one once it is
// dropped (run with --expose-gc). Only the reader's own modules are loaded. Prints one JSON line:
// { cpu, wall } in ms and { heap } in bytes.
//   node --expose-gc bench/decoding-honest-reader.mjs <reader> <api> <url> <warmup> <timed> <held> <sha256 of expected>
// BENCH_HONEST_WISP=/path/to/other/dist/src/index.js measures another build as Wisp (for an A/B).
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { PATHS, takeOfficial, takeWisp } from "./realistic-streams.mjs";

const empty = () => ({ text: "", args: "", thinking: "" });
const hello = [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }];

/** Wisp's model and base URL for each API, the stream's own prefix (`base`) before the API's path. */
const WISP = {
  anthropic: (base) => ({ model: "anthropic/claude-sonnet-5-5", baseURL: base }),
  openai: (base) => ({ model: "openai/gpt-4o", baseURL: `${base}/v1` }),
  responses: (base) => ({ model: "openai-responses/gpt-5", baseURL: `${base}/v1` }),
  gemini: (base) => ({ model: "google/gemini-2.5-flash", baseURL: `${base}/v1beta` }),
};

/** The official client's reader of `api` at `base`: it returns what it took (`out`). */
async function officialReader(api, base) {
  if (api !== "anthropic" && api !== "responses" && api !== "openai")
    throw new Error(`no official reader for ${api}`);
  const clients =
    api === "anthropic"
      ? { Anthropic: (await import("@anthropic-ai/sdk")).default }
      : { OpenAI: (await import("openai")).default };
  return async () => {
    const out = await takeOfficial(api, base, clients, empty());
    return { out, kept: out };
  };
}

/**
 * The reader `name` of `api`'s stream at `url`: each call reads it once and returns `out` (what it
 * took from the events, checked against raw) and `kept` (what it holds of the turn).
 */
export async function makeReader(name, api, url) {
  const base = url.slice(0, url.indexOf(PATHS[api]));
  if (name === "raw") {
    const { readRaw } = await import("./raw-reader.mjs");
    return async () => {
      const out = await readRaw(await fetch(url, { method: "POST", body: "{}" }), api, empty());
      return { out, kept: out };
    };
  }
  if (name === "official") return officialReader(api, base);
  if (name !== "wisp-for-await" && name !== "wisp-on-event") throw new Error(`unknown reader ${name}`);
  const { streamTurn } = await import(process.env.BENCH_HONEST_WISP ?? "wisp-agent");
  const options = { ...WISP[api](base), apiKey: "k" };
  const finish = async (turn, out) => {
    const message = await turn.message;
    if (message.error) throw new Error(message.error.message);
    return { out, kept: message };
  };
  if (name === "wisp-for-await")
    return async () => {
      const out = empty();
      const turn = streamTurn({ messages: hello }, options);
      const take = takeWisp(out);
      for await (const event of turn) take(event);
      return finish(turn, out);
    };
  return async () => {
    const out = empty();
    return finish(streamTurn({ messages: hello }, { ...options, onEvent: takeWisp(out) }), out);
  };
}

/** The digest the orchestrator computed from raw decoding of the same body. */
export const digest = (out) =>
  createHash("sha256")
    .update(JSON.stringify([out.text, out.args, out.thinking]))
    .digest("hex");

/** The heap used after a full collection (twice: a first one may leave what finalizers free). */
function heapAfterCollection() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** The heap one call's result keeps: held, then dropped, each measured after a full collection. */
async function retainedHeap(read) {
  const box = { held: (await read()).kept };
  // The runtime lets go of the request's own objects (which reach the reader's) a turn later.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const holding = heapAfterCollection();
  box.held = undefined;
  return holding - heapAfterCollection();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [name, api, url, warmup, timed, heldCalls, expected] = process.argv.slice(2);
  if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
  const read = await makeReader(name, api, url);
  const first = await read();
  if (digest(first.out) !== expected) throw new Error(`${name} decoded ${url} differently from raw`);
  for (let call = 1; call < Number(warmup); call++) await read();
  const cpu = [];
  const wall = [];
  for (let call = 0; call < Number(timed); call++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    await read();
    const wallMs = performance.now() - wallStart;
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    wall.push(wallMs);
  }
  const heap = [];
  for (let call = 0; call < Number(heldCalls); call++) heap.push(await retainedHeap(read));
  process.stdout.write(`${JSON.stringify({ cpu, wall, heap })}\n`);
}
