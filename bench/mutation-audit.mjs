/**
 * A check on the kills themselves (`npm run mutate:audit`): a test that fails in a mutation run for a
 * reason other than its mutant (work left over from an earlier run, shared state) makes a false kill,
 * and the score looks better than the tests are. This takes a seeded sample of killed mutants from
 * Stryker's last report (reports/mutation/mutation.json), applies each to a copy of the project, runs
 * only its killing test file there in a fresh Vitest process, and counts how many fail with the
 * mutant (real kills) and how many pass (false kills). Each test file first runs once without
 * mutants: a file that fails anyway proves nothing, and is reported as such. Writes
 * bench/mutation-audit.md.
 *
 *   node bench/mutation-audit.mjs [count=40] [seed=1] [prefix=src/,worker/]
 *
 * Exits 1 when the sample holds a false kill.
 *
 * The copy (a temp folder: every file git tracks, node_modules linked, with the fixtures' ../shared
 * linked beside it) keeps the checkout untouched, even if the audit is stopped; it is
 * removed when the audit ends.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mutantRange } from "./mutation-report.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const REPORT = join(ROOT, "reports/mutation/mutation.json");
const NOTE = join(ROOT, "bench/mutation-audit.md");

/**
 * @typedef {{ file: string, line: number, mutatorName: string, replacement: string,
 *   location: { start: { line: number, column: number }, end: { line: number, column: number } },
 *   test: string }} SampledKill
 */

/**
 * A seeded sample of `count` killed mutants under `prefix` (paths, comma-separated), each with the test file that killed it
 * (Stryker stops at the first failing test, so there is one). The same report, count and seed give the
 * same sample.
 * @returns {SampledKill[]}
 */
export function sampleKills(report, { count, seed, prefix }) {
  const testFile = new Map();
  for (const [file, { tests }] of Object.entries(report.testFiles ?? {}))
    for (const test of tests) testFile.set(test.id, file);
  const killed = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (!prefix.split(",").some((path) => file.startsWith(path))) continue;
    for (const mutant of mutants) {
      const test = testFile.get(mutant.killedBy?.[0]);
      if (mutant.status !== "Killed" || test === undefined) continue;
      const { mutatorName, replacement, location } = mutant;
      killed.push({ file, line: location.start.line, mutatorName, replacement, location, test });
    }
  }
  // A linear congruential generator: enough to spread the sample, and the same everywhere.
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const sample = [];
  while (sample.length < count && killed.length > 0)
    sample.push(killed.splice(Math.floor(next() * killed.length), 1)[0]);
  return sample;
}

/** The source with the mutant applied. */
export function applyMutant(source, { location, replacement }) {
  const [start, end] = mutantRange(source, location);
  return source.slice(0, start) + replacement + source.slice(end);
}

/** A replacement as table text: one line, at most 60 characters, its pipes escaped. */
function shown(replacement) {
  return replacement.replace(/\s+/g, " ").slice(0, 60).replace(/\|/g, "\\|");
}

/**
 * The Vitest projects a test file may belong to: worker/test/ is in "worker" or "worker-paced" (inside
 * workerd); everything else, worker/e2e/ included (it starts wrangler from Node), is in "node".
 */
export function projectsOf(testFile) {
  return testFile.startsWith("worker/test/") ? ["worker", "worker-paced"] : ["node"];
}

/** Runs one test file in the copy; true when it passes. */
function passes(copy, testFile) {
  const projects = projectsOf(testFile).flatMap((project) => ["--project", project]);
  const run = spawnSync("npx", ["vitest", "run", ...projects, testFile], {
    cwd: copy,
    encoding: "utf8",
    timeout: 600_000,
  });
  return run.status === 0;
}

/** A copy of the project in a temp folder, with ../shared beside it as in the checkout. */
function makeCopy() {
  const base = mkdtempSync(join(tmpdir(), "wisp-audit-"));
  const copy = join(base, "project");
  const tracked = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).stdout.split("\0");
  for (const file of tracked.filter((file) => file !== "" && existsSync(join(ROOT, file)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  const shared = join(ROOT, "..", "shared");
  if (existsSync(shared)) symlinkSync(shared, join(base, "shared"));
  return { base, copy };
}

function main() {
  const [count = 40, seed = 1] = process.argv.slice(2, 4).map(Number);
  const prefix = process.argv[4] ?? "src/,worker/";
  if (!existsSync(REPORT)) throw new Error(`${REPORT} not found: run \`npm run mutate\` first`);
  const report = JSON.parse(readFileSync(REPORT, "utf8"));
  const sample = sampleKills(report, { count, seed, prefix });
  const { base, copy } = makeCopy();
  const rows = [];
  try {
    const baseline = new Map();
    for (const kill of sample) {
      const path = join(copy, kill.file);
      const source = readFileSync(path, "utf8");
      let verdict;
      if (source !== report.files[kill.file].source) verdict = "source changed since the report";
      else {
        if (!baseline.has(kill.test)) baseline.set(kill.test, passes(copy, kill.test));
        if (!baseline.get(kill.test)) verdict = "test file fails without the mutant";
        else {
          writeFileSync(path, applyMutant(source, kill));
          try {
            verdict = passes(copy, kill.test) ? "FALSE KILL: passes with the mutant" : "killed";
          } finally {
            writeFileSync(path, source);
          }
        }
      }
      rows.push({ ...kill, verdict });
      console.log(`${verdict} | ${kill.file}:${kill.line} ${kill.mutatorName} | ${kill.test}`);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const killed = rows.filter((row) => row.verdict === "killed").length;
  const lines = [
    "# Mutation kills, re-checked",
    "",
    "Written by `bench/mutation-audit.mjs` (see its head): a seeded sample of killed mutants, each applied",
    "to a copy of the project with only its killing test file run, alone, in a fresh Vitest process.",
    "",
    `- Written: ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`,
    `- Sample: ${rows.length} of the killed mutants under \`${prefix}\`, seed ${seed}`,
    `- **${killed} of ${rows.length} killed** again`,
    "",
    "| mutant | killing test file | verdict |",
    "| --- | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${row.file}:${row.line} ${row.mutatorName} → \`\` ${shown(row.replacement)} \`\` | ${row.test} | ${row.verdict} |`,
    ),
    "",
  ];
  writeFileSync(NOTE, lines.join("\n"));
  // The repository's formatter aligns the table, so the note stays as `biome check` wants it.
  spawnSync("npx", ["biome", "format", "--write", NOTE], { cwd: ROOT, stdio: "ignore" });
  console.log(`${killed} of ${rows.length} killed; wrote ${NOTE}`);
  if (rows.some((row) => row.verdict.startsWith("FALSE KILL"))) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
