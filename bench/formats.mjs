// Transcripts (wisp-agent/formats): read and write throughput on the 1 MB pi recording and on a
// synthesized 50 MB Claude Code transcript, and the peak memory of reading the 50 MB one as a stream
// (measured in a fresh process, so nothing else's garbage counts).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fromClaudeCode, fromPi, toClaudeCode, toPi } from "wisp-agent/formats";
import { median, quantile } from "./stats.mjs";
import { syntheticClaudeCode, textStream } from "./synthetic-transcript.mjs";

const PI = new URL("../../shared/fixtures/sessions/pi-session-v1-large.jsonl", import.meta.url);
const LARGE = 50 * 1024 * 1024;
const COMPACT_EVERY = 4 * 1024 * 1024;
const MB = 1024 * 1024;

/** Runs `work` `rounds` times after a warm-up; MB/s for `bytes` (median and p25–p75). */
async function throughput(bytes, rounds, work) {
  await work();
  const rates = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await work();
    rates.push(bytes / MB / ((performance.now() - started) / 1000));
  }
  const show = (value) => value.toFixed(1);
  return `${show(median(rates))} (${show(quantile(rates, 0.25))}–${show(quantile(rates, 0.75))})`;
}

/** Unwraps a read, failing the bench loudly if the reader refused the input. */
function imported(read) {
  if (!read.ok) throw new Error(`the transcript did not read: ${read.error.message}`);
  return read.value;
}

const bytesOf = (text) => new TextEncoder().encode(text).length;

async function piRows() {
  const text = readFileSync(PI, "utf8");
  const bytes = bytesOf(text);
  const kept = imported(await fromPi(text)).state;
  const lean = imported(await fromPi(text, { keepSource: false })).state;
  if (toPi(kept) !== text) throw new Error("the pi recording did not write back byte for byte");
  return [
    [
      `pi recording, ${(bytes / MB).toFixed(2)} MB`,
      "read (string)",
      await throughput(bytes, 15, () => fromPi(text)),
    ],
    ["", "write back (kept lines)", await throughput(bytes, 15, () => toPi(kept))],
    ["", "write anew", await throughput(bytesOf(toPi(lean)), 15, () => toPi(lean))],
  ];
}

async function claudeCodeRows() {
  const chunks = [...syntheticClaudeCode(LARGE, COMPACT_EVERY)];
  const text = chunks.join("");
  const bytes = bytesOf(text);
  const kept = imported(await fromClaudeCode(text)).state;
  const lean = imported(await fromClaudeCode(text, { keepSource: false })).state;
  const streamed = imported(await fromClaudeCode(textStream(chunks), { keepSource: false }));
  if (JSON.stringify(streamed.state.messages) !== JSON.stringify(lean.messages)) {
    throw new Error("reading the stream gave another conversation than reading the string");
  }
  if (toClaudeCode(kept) !== text)
    throw new Error("the synthetic transcript did not write back byte for byte");
  const label = `Claude Code, ${(bytes / MB).toFixed(1)} MB (${kept.messages.length} messages since the last compaction)`;
  return [
    [label, "read (string)", await throughput(bytes, 5, () => fromClaudeCode(text))],
    [
      "",
      "read (string, `keepSource: false`)",
      await throughput(bytes, 5, () => fromClaudeCode(text, { keepSource: false })),
    ],
    [
      "",
      "read (ReadableStream, `keepSource: false`)",
      await throughput(bytes, 5, () => fromClaudeCode(textStream(chunks), { keepSource: false })),
    ],
    ["", "write back (kept lines)", await throughput(bytes, 5, () => toClaudeCode(kept))],
    [
      "",
      "write anew (the active branch)",
      await throughput(bytesOf(toClaudeCode(lean)), 5, () => toClaudeCode(lean)),
    ],
  ];
}

/** Peak heap and RSS while a fresh process reads the 50 MB transcript as a stream (see formats-memory.mjs). */
function memory(keepSource) {
  const script = fileURLToPath(new URL("./formats-memory.mjs", import.meta.url));
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", script, String(LARGE), String(COMPACT_EVERY), String(keepSource)],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(output);
}

export async function formatsSection() {
  const rows = [...(await piRows()), ...(await claudeCodeRows())];
  const lean = memory(false);
  const kept = memory(true);
  const mb = (value) => (value / MB).toFixed(1);
  return `## Transcripts: reading and writing Claude Code and pi files

\`wisp-agent/formats\` on the 1 MB pi recording (\`pi-session-v1-large.jsonl\`) and on a Claude Code
transcript synthesized from \`claude-code-tool-heavy.jsonl\` (bench/synthetic-transcript.mjs: the
recording's lines repeated with fresh ids and chained, a compaction every ${COMPACT_EVERY / MB} MB, as a long
session has). Reads are checked (the stream gives the same conversation as the string; writes back are
byte for byte) before timing. MB/s of the file's size (of the written text for "write anew"), median of
15 rounds for pi and 5 for the 50 MB file (p25–p75). Target: ≥ 50 MB/s read.

| file | operation | MB/s (p25–p75) |
|---|---|---:|
${rows.map((row) => `| ${row.join(" | ")} |`).join("\n")}

The stream reads give the reader one copy of the recording (about 40 KB) per chunk, from chunks made
beforehand, so only reading is timed.

Peak memory while a fresh process reads the ${mb(LARGE)} MB transcript from a \`ReadableStream\` whose
chunks are made as it is read, so the file is never held whole (bench/formats-memory.mjs). Above the
heap after a GC before the read: the peak of the heap sampled at every chunk (garbage included), and of
the live heap after a GC at every 16th chunk. Target: bounded, well under the input size.

| read | peak live heap | peak heap | peak RSS (the whole process) | messages read |
|---|---:|---:|---:|---:|
| \`keepSource: false\` | **${mb(lean.peakLive)} MB** | ${mb(lean.peakHeap)} MB | ${mb(lean.maxRss)} MB | ${lean.messages} |
| \`keepSource\` (default: every line kept to write back) | ${mb(kept.peakLive)} MB | ${mb(kept.peakHeap)} MB | ${mb(kept.maxRss)} MB | ${kept.messages} |
`;
}
