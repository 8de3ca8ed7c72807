// What tracing costs (issue 39: "with a tracer, a 20,000-event turn and a 10-tool run cost ≤ 3% more than
// without; without one, nothing"), measured as bench/decoding-honest.mjs measures decoding: each variant
// alone in a fresh Node process (bench/telemetry-overhead-reader.mjs), warm-up calls, then timed calls,
// each timed as that process's own CPU time (`process.cpuUsage()`, all its threads, garbage collection
// included). PROCESSES processes per workload and variant, started one at a time with the variants'
// order rotated each repetition, so a slow spell of the machine falls on all of them. Reported: the
// median of the per-process medians, their min–max (the spread), the ratio of the medians, and the
// median and min–max of the paired ratios (each repetition's process against its neighbour of the same
// repetition, started seconds apart).
// Workloads (see the reader): a 20,000-event streamTurn and a 10-tool runAgent (10 turns of one tool
// call, then an answer), both over the scripted model with its in-process fetch; and the same run with
// the model in another process behind a real HTTP server on 127.0.0.1 (what a run against a provider
// costs its own process, minus the network's wait).
// Variants:
//   no telemetry        this tree's build (dist/, `npm run build`)
//   no-op tracer        the same, with a tracer whose spans do nothing: Wisp's own part of tracing
//   tracer              the same, with the OpenTelemetry SDK's tracer, SimpleSpanProcessor (spans dropped
//                       at export): Wisp's part and the SDK's
//   batch tracer        the same with the SDK's BatchSpanProcessor (what its docs advise for production)
//   HEAD / before       no telemetry, two builds made here from git (`git archive` + esbuild, one module
//                       per file as tsup's ESM pass makes them) into node_modules/.cache: the last commit
//                       before telemetry and HEAD, so "without one, nothing" is measured on the commits
//                       that added it, not on whatever else this tree changed; their bundle sizes too
// Settings (environment):
//   BENCH_TELEMETRY_PROCESSES=9          processes per workload and variant
//   BENCH_TELEMETRY_WORKLOADS="turn"     these workloads only (turn, tools; ";" between)
//   BENCH_TELEMETRY_BEFORE=fc424b3^      the commit before telemetry ("" skips the build comparison)
//   BENCH_TELEMETRY_AFTER=HEAD           the commit it is compared with
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { measureBundle, PROGRAMS } from "./bundle-size.mjs";
import { median } from "./stats.mjs";
import { TOOL_TURNS, TURN_EVENTS } from "./telemetry-overhead-reader.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NODE = join(ROOT, "node_modules/.bin/node");
const READER = join(ROOT, "bench/telemetry-overhead-reader.mjs");
const DIST = join(ROOT, "dist/src/index.js");
const CACHE = join(ROOT, "node_modules/.cache/wisp-telemetry-overhead");
const PROCESSES = Number(process.env.BENCH_TELEMETRY_PROCESSES ?? 9);
/** fc424b3 added the telemetry option; its parent is the last commit without it. */
const BEFORE = process.env.BENCH_TELEMETRY_BEFORE ?? "fc424b3^";
const AFTER = process.env.BENCH_TELEMETRY_AFTER ?? "HEAD";
/** The turn takes about 0.1 s a call, the run about 6 ms: fewer calls of the turn, more of the run. */
const WORKLOADS = {
  turn: {
    name: `${TURN_EVENTS.toLocaleString("en")}-event turn`,
    calls: { warmup: 10, timed: 20 },
  },
  tools: { name: `${TOOL_TURNS}-tool run`, calls: { warmup: 40, timed: 200 } },
  "tools-http": { name: `${TOOL_TURNS}-tool run over HTTP`, calls: { warmup: 20, timed: 100 } },
};
/** The bundle-size programs whose sizes are compared before and after (bench/bundle-size.mjs). */
const BUNDLED = ["stream", "agent"];

const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

/** The source files under `dir`, recursively. */
const sources = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(dir, file));

/** Relative imports stay imports (`.ts` → `.js`), packages stay external: one module per file, as tsup's. */
const oneModulePerFile = {
  name: "one-module-per-file",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (args.path.startsWith(".")) return { path: args.path.replace(/\.ts$/, ".js"), external: true };
      return { path: args.path, external: true };
    });
  },
};

/**
 * Commit `ref`'s src/ built into the cache (once per commit): { ref, sha, index } with `index` its
 * dist/src/index.js. Under node_modules/.cache so its imports of zod and the rest resolve to this tree's.
 */
async function buildCommit(ref) {
  const sha = git("rev-parse", "--verify", `${ref}^{commit}`);
  const dir = join(CACHE, sha);
  const index = join(dir, "dist/src/index.js");
  if (existsSync(index)) return { ref, sha, index };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync("git", ["archive", "--format=tar", sha, "src"], {
    cwd: ROOT,
    maxBuffer: 1 << 28,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  writeFileSync(join(dir, "package.json"), '{ "type": "module", "sideEffects": false }\n');
  await build({
    entryPoints: sources(join(dir, "src")),
    outbase: dir,
    outdir: join(dir, "dist"),
    format: "esm",
    platform: "neutral",
    target: "es2022",
    bundle: true,
    plugins: [oneModulePerFile],
    logLevel: "error",
  });
  return { ref, sha, index };
}

/** One process of one variant: its per-call CPU and wall times in ms. */
function runProcess(workload, { variant, wisp }, calls) {
  const args = [workload, variant, wisp, calls.warmup, calls.timed].map(String);
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [READER, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (data) => {
      output += data;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`${workload} ${variant} exited ${code}`)),
    );
  });
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The median of `values`, with their min and max. */
const spread = (values) => ({ value: median(values), min: Math.min(...values), max: Math.max(...values) });

/** Runs every variant of `workload` PROCESSES times, rotated; per variant its per-process figures. */
async function measure(workload, variants, log) {
  const perProcess = variants.map(() => []);
  const { calls } = WORKLOADS[workload];
  for (let repetition = 0; repetition < PROCESSES; repetition++) {
    for (let step = 0; step < variants.length; step++) {
      const index = (repetition + step) % variants.length;
      const { cpu, wall } = await runProcess(workload, variants[index], calls);
      perProcess[index].push({ cpu: median(cpu), cpuMean: mean(cpu), wall: median(wall) });
    }
    log(`${workload} ${repetition + 1}/${PROCESSES}`);
  }
  return perProcess;
}

const verdict = (stat, base) => {
  if (stat.max < base.min) return "faster, beyond spread";
  if (stat.min > base.max) return "slower, beyond spread";
  return "within spread";
};

const range = (stat, digits) =>
  `${stat.value.toFixed(digits)} (${stat.min.toFixed(digits)}–${stat.max.toFixed(digits)})`;

/** `stat` against `base`: the ratio of medians, the paired ratios, and whether the spreads overlap. */
function compare(list, baseList) {
  const stat = spread(list.map((entry) => entry.cpu));
  const base = spread(baseList.map((entry) => entry.cpu));
  const ratios = list.map((entry, index) => entry.cpu / baseList[index].cpu);
  const paired = spread(ratios);
  return { stat, base, ratio: stat.value / base.value, ratios, paired, verdict: verdict(stat, base) };
}

const percent = (ratio) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)}%`;

/** What the numbers support about a goal of at most `goal` (1.03: 3% more; 1: nothing). */
function against(goal, { ratio, ratios, paired, verdict, base }) {
  const noise = ((base.max - base.min) / base.value) * 100;
  const above = ratios.filter((value) => value > goal).length;
  const what = `${percent(ratio)} (paired ${percent(paired.value)}, ${percent(paired.min)} to ${percent(paired.max)}; ${above} of ${ratios.length} paired ratios above ${goal.toFixed(2)}), ${verdict}`;
  if (verdict === "slower, beyond spread")
    return `${what}: more beyond the spread, ${ratio > goal ? "so the goal is missed" : "yet within the goal"}`;
  if (verdict === "faster, beyond spread") return `${what}: less beyond the spread, so within the goal`;
  const noisy = `the processes of one variant alone spread over ${noise.toFixed(0)}% of its median`;
  if (above === ratios.length && ratio > goal)
    return `${what}: the spreads overlap, but every paired ratio is above the goal, so on this run's evidence it is missed`;
  if (above === 0 && ratio <= goal)
    return `${what}: the spreads overlap, and no paired ratio is above the goal: consistent with it`;
  if (ratio > goal && paired.value > goal)
    return `${what}: above the goal in both medians, not beyond the spread (${noisy})`;
  if (ratio <= goal && paired.value <= goal)
    return `${what}: consistent with the goal, not shown (${noisy}: too much to tell ${goal > 1 ? `${Math.round((goal - 1) * 100)}%` : "a few per cent"} apart)`;
  return `${what}: the two medians fall on either side of the goal: no difference shown (${noisy})`;
}

/** Bundle gzip KB of the BUNDLED programs, each built against `index` (a build's dist/src/index.js). */
async function bundleSizes(index) {
  const plugin = {
    name: "wisp-agent-of-build",
    setup(builder) {
      builder.onResolve({ filter: /^wisp-agent$/ }, () => ({ path: index }));
    },
  };
  const sizes = {};
  for (const name of BUNDLED) {
    const program = PROGRAMS.find((entry) => entry.name === name);
    sizes[name] = (await measureBundle(`bench/size/${program.file}`, false, [plugin])).gzip;
  }
  return sizes;
}

/** Measures every workload and variant in separate processes and returns the report section. */
export async function telemetryOverheadSection() {
  const started = performance.now();
  const loads = [loadavg()];
  process.stderr.write(`telemetry-overhead: load average ${loads[0].map((n) => n.toFixed(2)).join(" ")}\n`);
  const log = (text) => {
    loads.push(loadavg());
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stderr.write(`telemetry-overhead: ${text} (${seconds} s, load ${loads.at(-1)[0].toFixed(2)})\n`);
  };
  const variants = [
    { key: "none", label: "no telemetry", variant: "none", wisp: DIST },
    { key: "noop", label: "no-op tracer", variant: "noop", wisp: DIST },
    { key: "traced", label: "tracer", variant: "traced", wisp: DIST },
    { key: "batch", label: "batch tracer", variant: "batch", wisp: DIST },
  ];
  let builds;
  let skipped = "";
  if (BEFORE !== "")
    try {
      builds = { before: await buildCommit(BEFORE), after: await buildCommit(AFTER) };
      builds.between = Number(
        git("rev-list", "--count", `${builds.before.sha}..${builds.after.sha}`, "--", "src"),
      );
      const short = (build) => `${build.ref} (${build.sha.slice(0, 7)})`;
      variants.push(
        {
          key: "before",
          label: `no telemetry, ${short(builds.before)}`,
          variant: "none",
          wisp: builds.before.index,
        },
        {
          key: "after",
          label: `no telemetry, ${short(builds.after)}`,
          variant: "none",
          wisp: builds.after.index,
        },
      );
      log(`built ${builds.before.sha.slice(0, 7)} and ${builds.after.sha.slice(0, 7)}`);
    } catch (error) {
      skipped = error instanceof Error ? error.message.split("\n")[0] : String(error);
      builds = undefined;
    }
  const wanted = process.env.BENCH_TELEMETRY_WORKLOADS?.split(";").map((name) => name.trim());
  const workloads = Object.keys(WORKLOADS).filter((name) => wanted === undefined || wanted.includes(name));
  const rows = [];
  const goals = [];
  for (const workload of workloads) {
    const perProcess = await measure(workload, variants, log);
    const byKey = Object.fromEntries(variants.map((variant, index) => [variant.key, perProcess[index]]));
    const name = WORKLOADS[workload].name;
    for (const [index, variant] of variants.entries()) {
      const list = perProcess[index];
      const stat = spread(list.map((entry) => entry.cpu));
      // The comparisons: the tracer against no telemetry, the later build against the earlier one.
      const base = { noop: "none", traced: "none", batch: "none", after: "before" }[variant.key];
      const cells = ["", "", "", ""];
      if (base !== undefined) {
        const pair = compare(list, byKey[base]);
        const vs = variants.find((other) => other.key === base).label;
        cells.splice(0, 4, vs, `${pair.ratio.toFixed(3)}x`, range(pair.paired, 3), pair.verdict);
        goals.push(
          variant.key === "after"
            ? `- ${name} without telemetry, ${builds.after.sha.slice(0, 7)} against ${builds.before.sha.slice(0, 7)} (goal: nothing): ${against(1, pair)}.`
            : `- ${name}, ${variant.label} against no telemetry (goal: at most +3%): ${against(1.03, pair)}.`,
        );
      }
      const cpuMean = median(list.map((entry) => entry.cpuMean));
      const wall = median(list.map((entry) => entry.wall));
      rows.push(
        `| ${name} | ${variant.label} | ${range(stat, 2)} | ${cells.join(" | ")} | ${cpuMean.toFixed(2)} | ${wall.toFixed(2)} |`,
      );
    }
  }
  let bundles = "";
  if (builds !== undefined) {
    const [before, after] = [await bundleSizes(builds.before.index), await bundleSizes(builds.after.index)];
    const kb = (bytes) => (bytes / 1024).toFixed(2);
    const lines = BUNDLED.map(
      (name) =>
        `| ${name}: ${PROGRAMS.find((entry) => entry.name === name).what} | ${kb(before[name])} | ${kb(after[name])} | ${after[name] - before[name] >= 0 ? "+" : ""}${after[name] - before[name]} B |`,
    );
    bundles = `
What a program without telemetry downloads (bench/bundle-size.mjs's measure: esbuild for the browser,
minified, code splitting, each chunk it loads gzipped at level 9), built against each commit:

| program | ${builds.before.sha.slice(0, 7)} gzip KB | ${builds.after.sha.slice(0, 7)} gzip KB | difference |
|---|---:|---:|---:|
${lines.join("\n")}
`;
  }
  const minutes = (performance.now() - started) / 60_000;
  const version = (pkg) =>
    JSON.parse(readFileSync(join(ROOT, `node_modules/${pkg}/package.json`), "utf8")).version;
  const load1 = loads.map((load) => load[0]);
  const buildNote =
    builds === undefined
      ? `The comparison of builds before and after telemetry was skipped${skipped === "" ? "" : ` (${skipped})`}.`
      : `"${builds.before.ref}" and "${builds.after.ref}" are those commits' src/, built here with esbuild one module per file
(as \`npm run build\`'s ESM pass) into node_modules/.cache; ${builds.between} commits touching src/ lie between them. Both run without telemetry: the difference is what telemetry's hooks cost a program that passes none.`;
  return `## Telemetry overhead, each variant alone in its own process

What a tracer costs (issue 39), measured as the decoding section above: each variant alone in a fresh Node
${process.versions.node.split(".")[0]} process (bench/telemetry-overhead.mjs, bench/telemetry-overhead-reader.mjs),
warm-up calls then timed calls, each measured as the process's own CPU time (\`process.cpuUsage()\`, user +
system of all its threads, garbage collection included); ${PROCESSES} processes per workload and variant, run one at
a time, the variants' order rotated each repetition.
Workloads, the first two over the scripted model with its in-process \`fetch\` (Anthropic's wire format): the
${WORKLOADS.turn.name} is one \`streamTurn\` whose text answer comes in ${TURN_EVENTS.toLocaleString("en")} pieces of 4–10 ASCII
characters, read with \`for await\` (${WORKLOADS.turn.calls.warmup} warm-up and ${WORKLOADS.turn.calls.timed} timed calls per process); the ${WORKLOADS.tools.name}
is one \`runAgent\` in which the model calls one tool (a zod-typed adder) per turn for ${TOOL_TURNS} turns, then
answers: ${TOOL_TURNS + 1} model turns and ${TOOL_TURNS} tool executions, ${1 + TOOL_TURNS + 1 + TOOL_TURNS} spans when traced (${WORKLOADS.tools.calls.warmup} warm-up and ${WORKLOADS.tools.calls.timed} timed
calls per process); the ${WORKLOADS["tools-http"].name} is the same run with the same scripted model in another
process behind a real HTTP server on 127.0.0.1 (bench/telemetry-overhead-server.mjs, \`wisp-agent/testing/node\`),
reached with Node's own \`fetch\`: what a run against a provider costs its own process, the network's wait
aside (${WORKLOADS["tools-http"].calls.warmup} warm-up and ${WORKLOADS["tools-http"].calls.timed} timed calls per process).
"no-op tracer" passes a tracer whose spans do nothing: Wisp's own part of tracing (building the
attributes, following the events, the tools' contexts), no SDK's.
"tracer" passes \`telemetry: { tracer }\` from @opentelemetry/sdk-trace-base ${version("@opentelemetry/sdk-trace-base")}'s
\`BasicTracerProvider\` with a \`SimpleSpanProcessor\` whose exporter drops the spans: Wisp's work and the SDK's
span creation are counted, export I/O is not (each process checks its first call's spans). "batch tracer"
is the same with the SDK's \`BatchSpanProcessor\` (default settings), as the OpenTelemetry docs advise
for production. The scripted
model's own work (reading each request, writing and encoding its stream) is part of every call in every
variant: the ratios are of the whole call, not of Wisp's share of it.
${buildNote}
${cpus().length} cores, load (1-minute average) ${Math.min(...load1).toFixed(2)}–${Math.max(...load1).toFixed(2)} during the run (${loads[0].map((n) => n.toFixed(2)).join(", ")} at its start), ${minutes.toFixed(1)} minutes.

CPU ms per call: the median of the ${PROCESSES} per-process medians, and in brackets their min–max. "ratio" divides
that median by the compared variant's; "paired" is the median (min–max) of the ${PROCESSES} ratios of each
repetition's two processes, started seconds apart; "spread" says whether the two min–max ranges overlap
(beyond spread only when they do not). Mean CPU uses each process's mean instead of its median; wall is
the median of per-process median wall times.

| workload | variant | CPU ms (min–max) | vs | ratio | paired (min–max) | spread | mean CPU ms | wall ms |
|---|---|---:|---|---:|---:|---|---:|---:|
${rows.join("\n")}

What the numbers support:
${goals.join("\n")}
${bundles}`;
}
