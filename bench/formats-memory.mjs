// Run by bench/formats.mjs in a fresh process (node --expose-gc formats-memory.mjs BYTES COMPACT_EVERY
// KEEP_SOURCE): reads the synthetic Claude Code transcript from a stream made as it is read, samples
// the heap at every chunk (and the live heap after a GC at every 16th), and prints
// { peakHeap, peakLive, maxRss, messages } as JSON (bytes).
import { resourceUsage } from "node:process";
import { fromClaudeCode } from "wisp-agent/formats";
import { syntheticClaudeCode, textStream } from "./synthetic-transcript.mjs";

const [bytes, compactEvery, keepSource] = process.argv.slice(2);
globalThis.gc();
const baseline = process.memoryUsage().heapUsed;
let peak = 0;
let peakLive = 0;
let chunks = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
  if (++chunks % 16 !== 0) return;
  globalThis.gc();
  peakLive = Math.max(peakLive, process.memoryUsage().heapUsed - baseline);
};
const read = await fromClaudeCode(
  textStream(syntheticClaudeCode(Number(bytes), Number(compactEvery)), sample),
  {
    keepSource: keepSource === "true",
  },
);
sample();
if (!read.ok) throw new Error(read.error.message);
// maxRSS is in KiB.
console.log(
  JSON.stringify({
    peakHeap: peak,
    peakLive,
    maxRss: resourceUsage().maxRSS * 1024,
    messages: read.value.state.messages.length,
  }),
);
