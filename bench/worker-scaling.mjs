// The demo Worker as its sessions grow (issue 38): the CPU time of the workerd process and the characters
// saved per chat turn at 10, 1,000 and 10,000 messages; the first turn after a restart against one
// export of the same session; and a 20 MB Claude Code transcript imported, run and exported. Real
// workerd (wrangler's unstable_startWorker), the scripted model without delays between words.
//
// BENCH_SCALING_QUICK=1 for a short run (2 Worker starts, 5 turns, a 2 MB transcript); each setting on
// its own: BENCH_SCALING_STARTS, BENCH_SCALING_TURNS, BENCH_SCALING_SIZES (comma-separated message
// counts), BENCH_SCALING_TRANSCRIPT_MB (0 skips the transcript).
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./stats.mjs";
import { syntheticClaudeCode } from "./synthetic-transcript.mjs";
import {
  chatTurn,
  createSession,
  exportSession,
  freePort,
  importSession,
  measured,
  sessionOfLength,
  TICKS_PER_SECOND,
  workerdPids,
} from "./worker-scaling-support.mjs";

const QUICK = process.env.BENCH_SCALING_QUICK === "1";
const setting = (name, fallback) => {
  const value = process.env[name];
  return value === undefined || value === "" ? fallback : value;
};
const STARTS = Number(setting("BENCH_SCALING_STARTS", QUICK ? 2 : 3));
const TURNS = Number(setting("BENCH_SCALING_TURNS", QUICK ? 5 : 24));
const WARM_UP_TURNS = QUICK ? 2 : 3;
const PACED_TURNS = Number(setting("BENCH_SCALING_PACED_TURNS", QUICK ? 2 : 5));
/** Between paced turns: longer than the KV copy's once a second. */
const PACE_MS = 1200;
const SIZES = String(setting("BENCH_SCALING_SIZES", "10,1000,10000")).split(",").map(Number);
const TRANSCRIPT_MB = Number(setting("BENCH_SCALING_TRANSCRIPT_MB", QUICK ? 2 : 20));
const MB = 1024 * 1024;
/** After the turns, before the CPU is read again: the KV copy, written at most once a second, lands. */
const SETTLE_MS = 1100;

/** Variables of every Worker started here: no delay between words; sessions created without limit. */
const VARS = { DEMO_CHUNK_DELAY_MS: "0", CREATE_RATE_LIMIT: "1000000/60" };

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the demo Worker (on `place` when given); `run(url)`; stops it, whatever happens. */
async function withWorker(place, run) {
  const { startWorker } = await import("../worker/e2e/start-worker.ts");
  const worker = await startWorker(VARS, "wrangler.toml", place);
  try {
    // The script's isolate loads on the first request: not part of what is measured after.
    const info = await fetch(`${worker.url}/api/info`);
    await info.text();
    return await run(worker.url);
  } finally {
    await worker.stop();
  }
}

/**
 * A session's turns: the first after its import (measured alone: the session loads, and a long one is
 * compacted), the other warm-up turns, `TURNS` one after another, then `PACED_TURNS` more
 * `PACE_MS` apart, so that each pays its own once-a-second KV copy as a user's turns would.
 */
async function turnCost(url, session) {
  const first = await measured(() => chatTurn(url, session), SETTLE_MS);
  if (!first.result.ok) return { error: `first turn: ${first.result.error}` };
  for (let turn = 1; turn < WARM_UP_TURNS; turn++) {
    const warm = await chatTurn(url, session);
    if (!warm.ok) return { error: `warm-up turn: ${warm.error}` };
  }
  const turns = (count, paceMs) =>
    measured(async () => {
      const outcomes = [];
      for (let turn = 0; turn < count; turn++) {
        if (turn > 0 && paceMs > 0) await wait(paceMs);
        const outcome = await chatTurn(url, session);
        outcomes.push(outcome);
        if (!outcome.ok) break;
      }
      return outcomes;
    }, SETTLE_MS);
  const batch = await turns(TURNS, 0);
  const paced = PACED_TURNS > 0 ? await turns(PACED_TURNS, PACE_MS) : { result: [] };
  const failed = [...batch.result, ...paced.result].find((turn) => !turn.ok);
  if (failed !== undefined) return { error: `turn: ${failed.error}` };
  const saved = batch.result.map((turn) => turn.savedChars).filter((chars) => chars !== undefined);
  return {
    firstCpuMs: first.cpuMs,
    cpuMs: batch.cpuMs / TURNS,
    wallMs: batch.wallMs / TURNS,
    pacedCpuMs: PACED_TURNS > 0 ? paced.cpuMs / PACED_TURNS : undefined,
    writtenBytes: batch.written === undefined ? undefined : batch.written / TURNS,
    savedChars: saved.length === batch.result.length ? median(saved) : undefined,
    messagesFrom: batch.result[0].messagesBefore,
    messagesTo: batch.result.at(-1).messageCount,
  };
}

/** Whether the session's stored state has a compaction (its older turns summarized for the model). */
async function compacted(url, session) {
  const exported = await exportSession(url, session);
  return exported.ok && /"compaction":\{/.test(exported.text);
}

/**
 * One Worker start: imports a session of each size and measures its turns; then, on the largest that
 * imported, stops the Worker and starts it twice more on the same state: a cold export, and a cold
 * first turn.
 */
async function oneStart(template) {
  const place = { persist: mkdtempSync(join(tmpdir(), "wisp-scaling-")), port: await freePort() };
  try {
    const sizes = [];
    let largest;
    let idleCpuMsPerSecond;
    await withWorker(place, async (url) => {
      idleCpuMsPerSecond = ((await measured(() => wait(SETTLE_MS))).cpuMs * 1000) / SETTLE_MS;
      for (const size of SIZES) {
        const body = JSON.stringify(sessionOfLength(template, size));
        const imported = await importSession(url, body, "application/json");
        if (!imported.ok) {
          sizes.push({ size, chars: body.length, error: `import: ${imported.error}` });
          continue;
        }
        const cost = await turnCost(url, imported.session);
        sizes.push({
          size,
          chars: body.length,
          ...cost,
          compacted: await compacted(url, imported.session),
        });
        if (cost.error === undefined) largest = { size, session: imported.session };
      }
    });
    if (largest === undefined) return { sizes, idleCpuMsPerSecond };
    const resume = { size: largest.size };
    await withWorker(place, async (url) => {
      const cold = await measured(() => exportSession(url, largest.session), SETTLE_MS);
      const warm = await measured(() => exportSession(url, largest.session), SETTLE_MS);
      if (!cold.result.ok) resume.error = `export: ${cold.result.error}`;
      Object.assign(resume, { exportChars: cold.result.chars, coldExport: cold, warmExport: warm });
    });
    await withWorker(place, async (url) => {
      const cold = await measured(() => chatTurn(url, largest.session), SETTLE_MS);
      const warm = await measured(() => chatTurn(url, largest.session), SETTLE_MS);
      if (!cold.result.ok) resume.error = `first turn: ${cold.result.error}`;
      Object.assign(resume, { coldTurn: cold, warmTurn: warm });
    });
    return { sizes, resume, idleCpuMsPerSecond };
  } finally {
    rmSync(place.persist, { recursive: true, force: true });
  }
}

/** A 20 MB (`TRANSCRIPT_MB`) Claude Code transcript: import, one turn, both exports; wall, CPU, sizes. */
async function transcript() {
  const text = [...syntheticClaudeCode(TRANSCRIPT_MB * MB)].join("");
  const bytes = Buffer.byteLength(text);
  const steps = [];
  let messages;
  await withWorker(undefined, async (url) => {
    const imported = await measured(() => importSession(url, text, "application/x-ndjson"), SETTLE_MS);
    steps.push({ step: "import", ...imported });
    if (!imported.result.ok) return;
    const session = imported.result.session;
    const turn = await measured(() => chatTurn(url, session), SETTLE_MS);
    steps.push({ step: "one turn", ...turn });
    const wisp = await measured(() => exportSession(url, session), SETTLE_MS);
    steps.push({ step: "export, Wisp JSON", ...wisp });
    if (wisp.result.ok) messages = JSON.parse(wisp.result.text).messages.length;
    const claude = await measured(() => exportSession(url, session, "claude-code"), SETTLE_MS);
    steps.push({ step: "export, Claude Code JSONL", ...claude });
    messages ??= turn.result.messageCount;
  });
  return { bytes, steps, messages };
}

const fixed = (value) => (value === undefined ? "–" : value.toFixed(1));
const whole = (value) => (value === undefined ? "–" : value.toFixed(0));
const count = (value) => (value === undefined ? "–" : Math.round(value).toLocaleString("en-US"));

/** "median (min–max)" of the known values shown by `show`, "–" with none. */
function spread(values, show) {
  const known = values.filter((value) => value !== undefined && !Number.isNaN(value));
  if (known.length === 0) return "–";
  if (known.length === 1) return show(known[0]);
  return `${show(median(known))} (${show(Math.min(...known))}–${show(Math.max(...known))})`;
}

function scalingTable(starts) {
  const rows = SIZES.map((size) => {
    const runs = starts.map((start) => start.sizes.find((entry) => entry.size === size));
    const good = runs.filter((run) => run.error === undefined);
    const errors = [...new Set(runs.filter((run) => run.error !== undefined).map((run) => run.error))];
    const notes = [
      ...(good.some((run) => run.compacted) ? ["compacted"] : []),
      ...errors.map((error) => `${runs.length - good.length} of ${runs.length} starts: ${error}`),
    ];
    const cells = [
      count(size),
      (runs[0].chars / MB).toFixed(2),
      good.length === 0 ? "–" : `${good[0].messagesFrom}–${good[0].messagesTo}`,
      spread(
        good.map((run) => run.cpuMs),
        fixed,
      ),
      spread(
        good.map((run) => run.wallMs),
        fixed,
      ),
      spread(
        good.map((run) => run.savedChars),
        count,
      ),
      spread(
        good.map((run) => run.writtenBytes),
        count,
      ),
      spread(
        good.map((run) => run.pacedCpuMs),
        fixed,
      ),
      spread(
        good.map((run) => run.firstCpuMs),
        whole,
      ),
      notes.join("; ") || "–",
    ];
    return `| ${cells.join(" | ")} |`;
  });
  return `| messages | import MB | messages during the turns | CPU ms/turn | wall ms/turn | savedChars/turn | bytes written/turn | CPU ms/turn, paced | CPU ms, first turn | notes |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}`;
}

function resumeTable(starts) {
  const resumes = starts.map((start) => start.resume).filter((resume) => resume !== undefined);
  if (resumes.length === 0) return "No session took its turns, so no restart was measured.";
  const good = resumes.filter((resume) => resume.error === undefined);
  const errors = [...new Set(resumes.filter((r) => r.error !== undefined).map((r) => r.error))];
  const row = (label, pick) =>
    `| ${label} | ${spread(
      good.map((resume) => pick(resume).cpuMs),
      whole,
    )} | ${spread(
      good.map((resume) => pick(resume).wallMs),
      whole,
    )} |`;
  const sizes = [...new Set(resumes.map((resume) => resume.size))].map(count).join(", ");
  const failed =
    errors.length === 0 ? "" : ` (failed in ${resumes.length - good.length}: ${errors.join("; ")})`;
  return `The ${sizes}-message session${failed}; its export is ${spread(
    good.map((resume) => resume.exportChars / MB),
    (value) => value.toFixed(2),
  )} MB. One request each (CPU in whole ticks of ${1000 / TICKS_PER_SECOND} ms):

| after a restart | workerd CPU ms | wall ms |
| --- | --- | --- |
${row("first request: export, read whole", (resume) => resume.coldExport)}
${row("then a second export", (resume) => resume.warmExport)}
${row("first request: a turn (the resume)", (resume) => resume.coldTurn)}
${row("then a second turn", (resume) => resume.warmTurn)}`;
}

function transcriptTable(large) {
  const rows = large.steps.map(({ step, result, wallMs, cpuMs }) => {
    let outcome = "ok";
    if (!result.ok) outcome = result.error;
    else if (result.chars !== undefined) outcome = `${(result.chars / MB).toFixed(1)} MB`;
    else if (result.messageCount !== undefined) {
      const messages = `${count(result.messagesBefore)} → ${count(result.messageCount)} messages`;
      outcome = `ok, ${messages}, savedChars ${count(result.savedChars)}`;
    }
    return `| ${step} | ${whole(wallMs)} | ${whole(cpuMs)} | ${outcome} |`;
  });
  return `| step | wall ms | workerd CPU ms | result |
| --- | --- | --- | --- |
${rows.join("\n")}`;
}

export async function workerScalingSection() {
  const loadBefore = loadavg();
  const started = performance.now();
  // The shape of a stored state (version, model, system prompt, …): a new session's export.
  const template = await withWorker(undefined, async (url) => {
    const exported = await exportSession(url, await createSession(url));
    if (!exported.ok) throw new Error(`export of a new session: ${exported.error}`);
    return JSON.parse(exported.text);
  });
  const starts = [];
  for (let start = 0; start < STARTS; start++) starts.push(await oneStart(template));
  const large = TRANSCRIPT_MB > 0 ? await transcript() : undefined;
  const loadAfter = loadavg();
  const left = workerdPids();
  if (left.length > 0) throw new Error(`workerd processes left running: ${left.join(", ")}`);
  const minutes = (performance.now() - started) / 60_000;
  const load = (values) => values.map((value) => value.toFixed(2)).join(" ");
  const idle = spread(
    starts.map((start) => start.idleCpuMsPerSecond),
    fixed,
  );
  const transcriptPart =
    large === undefined
      ? ""
      : `
A ${(large.bytes / MB).toFixed(1)} MB Claude Code transcript (bench/synthetic-transcript.mjs: the tool-heavy
recording repeated, a compaction every 4 MB) imported as \`application/x-ndjson\`, one turn, then
exported both ways; ${count(large.messages)} messages in its Wisp export.

${transcriptTable(large)}
`;
  return `## Demo Worker: sessions that grow (issue 38)

The real Worker under wrangler's \`unstable_startWorker\` (workerd, local Durable Objects and KV), the
scripted model with no delay between words. A session of N messages (prompts of ~200 characters and
answers of ~600, alternating; each answer reports the conversation before it as its input tokens, as a
provider would) is imported as Wisp JSON. Its first turn is measured alone; after ${WARM_UP_TURNS - 1} more warm-up
turn(s), ${TURNS} turns ("What is 2 + 3?": a calculator call and an answer, two model requests, four new
messages) run back to back, then ${PACED_TURNS} more ${PACE_MS} ms apart ("paced"), so each pays its own KV
copy (written at most once a second) as a user's turns would. Method: CPU is the \`workerd\` process's
utime + stime from \`/proc/<pid>/stat\` (${TICKS_PER_SECOND} ticks a second, so a per-turn figure is an
average over its turns), read ${SETTLE_MS} ms after the last request so deferred writes fall inside;
idle, workerd used ${idle} ms CPU a second. "Bytes written" is its \`wchar\` (\`/proc/<pid>/io\`: every
write call, SQLite, KV files and the SSE sent alike); savedChars is the \`run-end\` event's own count ("–"
where the Worker does not report it). ${STARTS} separate Worker starts (processes): median (min–max)
across them. "compacted": the first turn summarized the older messages (past 80% of the model's
200k-token window), so later model requests no longer carry the whole history; below that (1,000
messages is ~100k tokens) every model request carries all of it. ${cpus().length} cores; load average
${load(loadBefore)} before, ${load(loadAfter)} after (other work shares the machine); ${minutes.toFixed(1)} minutes.

${scalingTable(starts)}

Resume: the Worker stopped and started again on the same local state, then one request to the session
(an export read whole; after another restart, a turn), then a second one, warm.

${resumeTable(starts)}
${transcriptPart}`;
}
