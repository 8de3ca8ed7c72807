// Stream decoding without the network: the same streams as decoding.mjs (bench/realistic-streams.mjs),
// cut into the same 16 KB chunks beforehand and handed over one per macrotask, as a socket delivers
// them, in this process. What is left is each reader's own work, so a change of a few percent shows,
// where the loopback section (a server in another process, sharing the 2 cores) varies by about 5%.
//   raw              the same Response body read with for await, then eventsource-parser + JSON.parse +
//                    concatenation, as in decoding.mjs
//   Wisp for await   streamTurn with a `fetch` that answers with the chunks, iterated with for await
//   Wisp onEvent     the same with a callback per event
import { createParser } from "eventsource-parser";
import { streamTurn } from "wisp-agent";
import { finishTurn, SCENARIOS, TAKE, takeWisp } from "./realistic-streams.mjs";
import { median, quantile } from "./stats.mjs";

export const EVENTS = 20_000;
const ROUNDS = 31;
const CHUNK = 16_384;

export const MODELS = {
  anthropic: "anthropic/claude-sonnet-5-5",
  openai: "openai/gpt-4o",
  responses: "openai-responses/gpt-5",
  gemini: "google/gemini-2.5-flash",
};

const nextMacrotask = () => new Promise((resolve) => setImmediate(resolve));

/** `body` as UTF-8, cut into the 16 KB chunks a socket would deliver. @param {string} body */
export function chunksOf(body) {
  const bytes = new TextEncoder().encode(body);
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK)
    chunks.push(bytes.subarray(offset, offset + CHUNK));
  return chunks;
}

/** A `fetch` answering every request with the chunks, one per macrotask. */
export function fetchOf(chunks) {
  return async () =>
    new Response(
      new ReadableStream(
        {
          index: 0,
          async pull(controller) {
            await nextMacrotask();
            if (this.index < chunks.length) controller.enqueue(chunks[this.index++]);
            else controller.close();
          },
        },
        { highWaterMark: 0 },
      ),
      { headers: { "content-type": "text/event-stream" } },
    );
}

export const hello = [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }];

/**
 * The readers of one stream, `[name, read]` pairs: raw first, then Wisp with `for await` and with
 * `onEvent`, through `turn` (the package's `streamTurn`, or another build's for compare-builds.mjs).
 */
export function readers(api, chunks, turn = streamTurn) {
  const take = TAKE[api];
  const options = { model: MODELS[api], apiKey: "k", fetch: fetchOf(chunks) };
  // The raw reader keeps the first tool call's arguments only (parallel calls); so does this one.
  const onWisp = takeWisp;
  const finish = finishTurn;
  return [
    [
      "raw",
      async () => {
        const out = { text: "", args: "" };
        const parser = createParser({
          onEvent(event) {
            if (event.data !== "[DONE]") take(JSON.parse(event.data), out);
          },
        });
        const response = await options.fetch();
        const decoder = new TextDecoder();
        for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
        return out;
      },
    ],
    [
      "Wisp for await",
      async () => {
        const out = { text: "", args: "" };
        const stream = turn({ messages: hello }, options);
        const on = onWisp(out);
        for await (const event of stream) on(event);
        return finish(stream, out);
      },
    ],
    [
      "Wisp onEvent",
      async () => {
        const out = { text: "", args: "" };
        return finish(turn({ messages: hello }, { ...options, onEvent: onWisp(out) }), out);
      },
    ],
  ];
}

/** Measures decoding in process and returns the report section. */
export async function decodingCpuSection() {
  const rows = [];
  // BENCH_SCENARIOS="anthropic text,gemini text" measures only those (for profiling work).
  const only = process.env.BENCH_SCENARIOS?.split(",").map((name) => name.trim());
  for (const [name, make] of Object.entries(SCENARIOS)) {
    if (only !== undefined && !only.includes(name)) continue;
    const { api, body } = make(EVENTS);
    const chunks = chunksOf(body);
    const list = readers(api, chunks);
    const want = await list[0][1]();
    for (let pass = 0; pass < 3; pass++)
      for (const [reader, fn] of list) {
        const got = await fn();
        if (got.text !== want.text || got.args !== want.args)
          throw new Error(`${reader} decoded ${name} differently from the raw baseline`);
      }
    const times = list.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let step = 0; step < list.length; step++) {
        const index = (round + step) % list.length;
        const start = performance.now();
        await list[index][1]();
        times[index].push(performance.now() - start);
      }
    }
    const raws = times[0];
    for (const [index, [reader]] of list.entries()) {
      const ratio = median(times[index].map((ms, round) => ms / raws[round]));
      const cell = `${median(times[index]).toFixed(1)} (${quantile(times[index], 0.25).toFixed(1)}–${quantile(times[index], 0.75).toFixed(1)})`;
      rows.push(`| ${name} | ${reader} | ${cell} | ${ratio.toFixed(2)}x |`);
    }
  }
  return `## Stream decoding in process: each reader's own work

The streams of the section above, ${EVENTS.toLocaleString("en")} events each, cut into the same 16 KB chunks
beforehand and handed over one per macrotask in this process (bench/decoding-cpu.mjs), as the body of
a \`Response\` from a \`fetch\` function: Wisp's \`streamTurn\` gets it as its \`fetch\` option, the raw
reader calls it. No server shares the
cores, so what is left is each reader's own work, and a change of a few percent shows. Median of
${ROUNDS} interleaved rounds (p25–p75), ms, and the median of each round's ratio to raw.

| stream | reader | ms (p25–p75) | time / raw |
|---|---|---:|---:|
${rows.join("\n")}
`;
}
