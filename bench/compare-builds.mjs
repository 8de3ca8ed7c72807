// Two builds of Wisp side by side: the same in-process streams as decoding-cpu.mjs, read by each build's
// streamTurn in turn (for await, then onEvent), the order alternating every round. What it prints is the
// median of each round's ratio B/A, so a change of 2–3% shows where two separate bench runs differ by
// more than that (the machine's state, the heap's, moves from run to run).
//
//   git stash && npm run build && cp -r dist /tmp/wisp-before && git stash pop && npm run build
//   npx node bench/compare-builds.mjs /tmp/wisp-before dist ["anthropic text,gemini text"]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chunksOf, EVENTS, readers } from "./decoding-cpu.mjs";
import { SCENARIOS } from "./realistic-streams.mjs";
import { median } from "./stats.mjs";

const ROUNDS = 60;
const WARM_UP = 10;

const [before, after, only] = process.argv.slice(2);
if (before === undefined || after === undefined) {
  console.error("usage: node bench/compare-builds.mjs <dist A> <dist B> [scenario,scenario]");
  process.exit(2);
}

/** One build's `streamTurn`, from its dist directory. @param {string} dist */
async function streamTurnOf(dist) {
  const url = pathToFileURL(resolve(dist, "src/index.js")).href;
  return (await import(url)).streamTurn;
}

const builds = [await streamTurnOf(before), await streamTurnOf(after)];
const names = only?.split(",").map((name) => name.trim()) ?? Object.keys(SCENARIOS);
console.log(`B = ${after}, A = ${before}; median of ${ROUNDS - WARM_UP} rounds' B/A, ms A → B`);
for (const name of names) {
  const make = SCENARIOS[name];
  if (make === undefined) throw new Error(`no scenario "${name}"`);
  const { api, body } = make(EVENTS);
  const chunks = chunksOf(body);
  // decoding-cpu's readers through each build: [1] is for await, [2] onEvent (they check the message).
  const [ofA, ofB] = builds.map((streamTurn) => readers(api, chunks, streamTurn));
  for (const index of [1, 2]) {
    const mode = ofA[index][0].replace("Wisp ", "");
    const [a, b] = [ofA[index][1], ofB[index][1]];
    const [gotA, gotB] = [await a(), await b()];
    if (gotA.text !== gotB.text || gotA.args !== gotB.args)
      throw new Error(`the builds decoded ${name} differently`);
    const times = { a: [], b: [], ratio: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [a, b] : [b, a];
      const ms = [];
      for (const run of order) {
        const start = performance.now();
        await run();
        ms.push(performance.now() - start);
      }
      if (round < WARM_UP) continue;
      const [msA, msB] = round % 2 === 0 ? ms : [ms[1], ms[0]];
      times.a.push(msA);
      times.b.push(msB);
      times.ratio.push(msB / msA);
    }
    console.log(
      `${name}, ${mode}: ${median(times.a).toFixed(1)} → ${median(times.b).toFixed(1)} ms, B/A ${median(times.ratio).toFixed(3)}`,
    );
  }
}
