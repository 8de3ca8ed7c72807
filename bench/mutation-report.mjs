/**
 * The mutation-testing results as a bench/-style note: bench/mutation-results.md, from Stryker's JSON
 * report (reports/mutation/mutation.json). The score per folder, the src/ and worker/ totals against
 * the goals (issue 41), the runs that produced them, and every mutant that no test noticed, so each
 * can be triaged (killed by a new test, or listed with the reason it is equivalent).
 *
 *   node bench/mutation-report.mjs             writes the note from the last report and the kept results
 *   node bench/mutation-report.mjs --run ...   what `npm run mutate` does: runs Stryker (the src/
 *                                              pass, then the worker/ pass, unless MUTATE or
 *                                              --mutate picks the code; see stryker.config.mjs),
 *                                              times each pass, then writes the note
 *
 * Stryker's incremental mode carries the results of folders a run did not mutate into its report, but
 * its files (reports/) are not committed, so a fresh clone has none. What the note needs of each
 * result (the counts per status, the mutants it lists, and a hash of the source each was taken from)
 * is kept in bench/mutation-kept.json (committed): each run's report updates it file by file, and the
 * note is written from it, so it covers every folder run so far, in any checkout; a folder whose
 * source changed since its run shows it (the "current" column). Stryker's incremental file itself is
 * kept too, gzipped (bench/mutation-incremental.json.gz, after every pass, interrupted ones included),
 * and restored in a checkout without one, so a run goes on where the last one stopped.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import ts from "typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const REPORT = join(ROOT, "reports/mutation/mutation.json");
/** The log of runs: when, what, how long (committed, so a fresh clone keeps it too). */
const RUNS = join(ROOT, "bench/mutation-runs.json");
/**
 * Each folder's first complete result, before the tests written against its survivors (committed). An
 * entry whose first run was interrupted before any complete one (src/mcp) holds that run's finished
 * part, said in its `part` field.
 */
const BASELINE = join(ROOT, "bench/mutation-baseline.json");
const NOTE = join(ROOT, "bench/mutation-results.md");
/**
 * Survivors judged equivalent, each with its reason (committed): mutants where a disable comment would
 * be too wide, since it silences every variant of its mutator on the line, killable ones too.
 */
const JUDGED = join(ROOT, "bench/mutation-equivalent.json");
/** What the note needs of every result taken so far (committed; see the top of this file). */
const KEPT = join(ROOT, "bench/mutation-kept.json");
/** Stryker's incremental file (stryker.config.mjs), and its committed copy, gzipped. */
const INCREMENTAL = join(ROOT, "reports/stryker-incremental.json");
const INCREMENTAL_KEPT = join(ROOT, "bench/mutation-incremental.json.gz");

/**
 * Stryker's incremental file from its committed copy, when this checkout has none (a fresh clone): a
 * run there reuses every result whose code and tests did not change, as it would where it was taken.
 * Returns whether it restored one.
 */
export function restoreIncremental(file = INCREMENTAL, kept = INCREMENTAL_KEPT) {
  if (existsSync(file) || !existsSync(kept)) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, gunzipSync(readFileSync(kept)));
  return true;
}

/**
 * Stryker's incremental file into its committed copy (after every pass, interrupted ones too: Stryker
 * saves what it finished), so the next checkout goes on from there.
 */
export function keepIncremental(file = INCREMENTAL, kept = INCREMENTAL_KEPT) {
  if (!existsSync(file)) return false;
  writeFileSync(kept, gzipSync(readFileSync(file), { level: 9 }));
  return true;
}

/** The folders the score is about, in stryker.config.mjs's order. */
const FOLDERS = [
  "src/stream",
  "src/http",
  "src/errors",
  "src/agent",
  "src/session",
  "src/mcp",
  "src/bridge",
  "worker",
];
const GOALS = { "src/": 85, "worker/": 75 };

/** Statuses as Stryker counts them: detected = killed + timeout; valid adds survived and no coverage. */
const COLUMNS = [
  ["Killed", "killed"],
  ["Timeout", "timeout"],
  ["Survived", "survived"],
  ["NoCoverage", "no coverage"],
  ["CompileError", "compile error"],
  ["RuntimeError", "runtime error"],
  ["Ignored", "ignored"],
];

export function folderOf(file) {
  const name = file.replace(/\\/g, "/");
  const known = FOLDERS.find((folder) => name === folder || name.startsWith(`${folder}/`));
  if (known) return known;
  const parts = name.split("/");
  return parts[0] === "src" && parts.length > 2 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? name);
}

/** Counts per status, and the score: detected / (detected + survived + no coverage), in percent. */
export function tally(mutants) {
  const counts = Object.fromEntries(COLUMNS.map(([status]) => [status, 0]));
  for (const mutant of mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return { counts, total: mutants.length, valid, score: valid === 0 ? null : (100 * detected) / valid };
}

const pct = (score) => (score === null ? "–" : `${score.toFixed(2)} %`);
const oneLine = (text, max = 90) => {
  const flat = String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const code = (text) => `\`${text.replace(/`/g, "ˋ")}\``;

function gitDescribe() {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  if (head.status !== 0) return "unknown";
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "src", "worker"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return `${head.stdout.trim()}${dirty.stdout.trim() === "" ? "" : " + uncommitted changes in src/ or worker/"}`;
}

/** Whether an ignored mutant was ignored by a `// Stryker disable` comment (as equivalent), not as a static one. */
export const isMarkedEquivalent = (mutant) =>
  mutant.status === "Ignored" && !/static/i.test(mutant.statusReason ?? "");

/** Whether the note lists a mutant (each is kept whole); the others are only counted. */
const isListed = (mutant) =>
  mutant.status === "Survived" || mutant.status === "NoCoverage" || isMarkedEquivalent(mutant);

/** The SHA-256 of a source text, in hex: how a kept result tells whether its source changed since. */
export const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/**
 * A kept result: the source files it was taken from (path → SHA-256 of the text), its mutants counted
 * per status, and the ones the note lists, each with the code it replaced and the text of its line.
 * A run's result covers one file; a result may cover a whole folder when only the folder's totals
 * survived (the first results, kept from the note before this file existed).
 * @typedef {{ status: string, mutatorName: string, replacement?: string, statusReason?: string,
 *   location: { start: { line: number, column: number }, end: { line: number, column: number } },
 *   file: string, original: string, line: string }} KeptMutant
 * @typedef {{ files: Record<string, string>, counts: Record<string, number>, mutants: KeptMutant[] }} KeptResult
 * @typedef {{ framework?: { version?: string, dependencies?: Record<string, string> }, results: KeptResult[] }} Kept
 */

/**
 * Stryker's JSON report as kept results, one per file.
 * @returns {Kept}
 */
export function condense(report) {
  const results = Object.entries(report.files).map(([file, { source, mutants }]) => {
    const counts = {};
    const listed = [];
    for (const mutant of mutants) {
      if (!isListed(mutant)) {
        counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
        continue;
      }
      const { status, mutatorName, replacement, statusReason, location } = mutant;
      listed.push({
        file,
        status,
        mutatorName,
        replacement,
        ...(statusReason === undefined ? {} : { statusReason }),
        location,
        original: originalText(source, location),
        line: (source.split("\n")[location.start.line - 1] ?? "").trim(),
      });
    }
    return { files: { [file]: sha256(source) }, counts, mutants: listed };
  });
  return { framework: report.framework, results };
}

/**
 * Kept results updated with newer ones: a kept result that shares a file with a newer one leaves
 * (a folder-wide one whole, so its folder shows as "part" until the folder runs whole again).
 * @param {Kept} kept
 * @param {Kept} newer
 * @returns {Kept}
 */
export function mergeKept(kept, newer) {
  const rerun = new Set(newer.results.flatMap((result) => Object.keys(result.files)));
  const results = [
    ...kept.results.filter((result) => !Object.keys(result.files).some((file) => rerun.has(file))),
    ...newer.results,
  ].sort((a, b) => Object.keys(a.files)[0].localeCompare(Object.keys(b.files)[0]));
  return { framework: newer.framework ?? kept.framework, results };
}

/** A kept result's mutants: the listed ones, and one `{ status }` per counted one. */
const mutantsOf = (result) => [
  ...result.mutants,
  ...Object.entries(result.counts).flatMap(([status, count]) =>
    Array.from({ length: count }, () => ({ status })),
  ),
];

/**
 * Whether TypeScript `source` has anything Stryker mutates. Its JavaScript (types removed, comments,
 * imports and re-exports too) with no call (but of a plain name with no arguments), block, string, array,
 * regular expression or operator has none: a file of types, numeric constants, re-exports or
 * `export default createApp();` (worker/index.ts) gets no mutant, so Stryker's report leaves it out,
 * and a folder is whole without it.
 */
export function hasMutableCode(source) {
  const js = ts
    .transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: true },
    })
    .outputText // imports and re-exports are not mutated
    .replace(/^(?:import|export)\s[^;]*?\bfrom\s*["'][^"']*["'];?$/gm, "")
    .replace(/^import\s*["'][^"']*["'];?$/gm, "")
    .replace(/^export \{\};?$/gm, "")
    // A call of a plain name with no arguments (`export default createApp();`): no mutator changes it.
    .replace(/(?<![\w$.])[A-Za-z_$][\w$]*\(\)/g, "0");
  return /[(){}[\]"'`<>!&|?+\-*/%]/.test(js);
}

/** The source files Stryker mutates in a folder (as stryker.config.mjs's EXCLUDED leaves them). */
export function sourcesOf(folder) {
  return readdirSync(join(ROOT, folder), { recursive: true })
    .map((name) => `${folder}/${String(name).replace(/\\/g, "/")}`)
    .filter((file) => file.endsWith(".ts") && !/\.(d|test)\.ts$/.test(file))
    .filter((file) => !/(^|\/)(test|e2e|public|testing)\//.test(file.slice(folder.length)))
    .filter((file) => hasMutableCode(readFileSync(join(ROOT, file), "utf8")));
}

/**
 * The baseline with every folder that the kept results hold whole (each of its source files run) and
 * the baseline does not hold yet, as they have it now: a folder's "before" is taken once, from its
 * first complete run, and kept.
 */
export function extendBaseline(
  baseline,
  kept,
  { date = new Date(), commit = gitDescribe(), sources = sourcesOf } = {},
) {
  const { byFolder, hasRun } = gather(kept);
  const next = { ...baseline };
  for (const [folder, mutants] of byFolder) {
    if (next[folder] || !FOLDERS.includes(folder)) continue;
    if (!sources(folder).every(hasRun)) continue;
    const { counts, score } = tally(mutants);
    next[folder] = { date: date.toISOString().slice(0, 10), commit, score, counts };
  }
  return next;
}

/**
 * Per folder, the mutants of its kept results (every one, for the counts) and the listed ones; and
 * whether a file has a result.
 */
function gather(kept) {
  const byFolder = new Map();
  const listedByFolder = new Map();
  for (const result of kept.results) {
    const folder = folderOf(Object.keys(result.files)[0]);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), ...mutantsOf(result)]);
    listedByFolder.set(folder, [...(listedByFolder.get(folder) ?? []), ...result.mutants]);
  }
  const ran = new Set(kept.results.flatMap((result) => Object.keys(result.files)));
  return { byFolder, listedByFolder, hasRun: (file) => ran.has(file) };
}

/**
 * The note, from the kept results (see condense) and the log of runs.
 * @param {Kept} kept
 */
export function renderNote(
  kept,
  runs = [],
  {
    date = new Date(),
    commit = gitDescribe(),
    baseline = {},
    sources = sourcesOf,
    judged = /** @type {JudgedEntry[]} */ ([]),
    currentSource = (file) => {
      const path = join(ROOT, file);
      return existsSync(path) ? readFileSync(path, "utf8") : undefined;
    },
  } = {},
) {
  const { byFolder, listedByFolder, hasRun } = gather(kept);
  const current = new Map();
  for (const result of kept.results) {
    const folder = folderOf(Object.keys(result.files)[0]);
    const unchanged = Object.entries(result.files).every(([file, hash]) => {
      const source = currentSource(file);
      return source !== undefined && sha256(source) === hash;
    });
    if (!unchanged) current.set(folder, false);
    else if (!current.has(folder)) current.set(folder, true);
  }
  /** Whether every source file of a folder has results. */
  const isWhole = (folder) => !FOLDERS.includes(folder) || sources(folder).every(hasRun);
  const folders = [
    ...FOLDERS.filter((folder) => byFolder.has(folder)),
    ...[...byFolder.keys()].filter((folder) => !FOLDERS.includes(folder)).sort(),
  ];
  const header = `| folder | score | ${COLUMNS.map(([, label]) => label).join(" | ")} | total | current |`;
  const rule = `|---|---:|${COLUMNS.map(() => "---:").join("|")}|---:|---|`;
  const row = (name, mutants, isCurrent) => {
    const { counts, total, score } = tally(mutants);
    return `| ${name} | ${pct(score)} | ${COLUMNS.map(([status]) => counts[status]).join(" | ")} | ${total} | ${isCurrent} |`;
  };
  const lines = [
    "# Mutation testing results",
    "",
    "Written by `bench/mutation-report.mjs` from the results kept in `bench/mutation-kept.json`, which",
    "each Stryker report (`reports/mutation/mutation.json`, browsable as `reports/mutation/mutation.html`)",
    "updates file by file. `npm run mutate` regenerates it; see `stryker.config.mjs` for what is mutated and how.",
    "",
    `- Written: ${date.toISOString().replace(/\.\d+Z$/, "Z")}`,
    `- Source: ${commit}`,
    `- Stryker: ${kept.framework?.version ?? "?"} (${Object.entries(kept.framework?.dependencies ?? {})
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")})`,
    "",
    "Score = (killed + timeout) / (killed + timeout + survived + no coverage). Mutants that do not",
    "compile (the TypeScript checker) or that break the test run are not counted; ignored ones are",
    "static mutants (run only while a module loads), skipped unless STRYKER_STATIC=1. *current*: whether the folder's files are",
    "unchanged since their results were taken (a later run of an other folder keeps them).",
    "",
    "## Score per folder",
    "",
    header,
    rule,
    ...folders.map((folder) =>
      row(
        isWhole(folder) ? folder : `${folder} (part)`,
        byFolder.get(folder),
        current.get(folder) ? "yes" : "no",
      ),
    ),
    "",
    "## Totals against the goals",
    "",
    "| part | score | goal | folders run | folders not run yet |",
    "|---|---:|---:|---|---|",
  ];
  for (const [part, goal] of Object.entries(GOALS)) {
    const wanted = FOLDERS.filter((folder) => `${folder}/`.startsWith(part));
    const run = wanted.filter((folder) => byFolder.has(folder));
    const { score } = tally(run.flatMap((folder) => byFolder.get(folder)));
    const missing = wanted.filter((folder) => !byFolder.has(folder));
    const partial = run.filter((folder) => !isWhole(folder));
    const verdict = score === null ? "" : score >= goal ? "met" : "not met";
    // Met only when every folder has run whole; before that, what the folders run so far give.
    const meets =
      verdict === ""
        ? ""
        : missing.length === 0 && partial.length === 0
          ? ` (${verdict})`
          : ` (${verdict} so far)`;
    lines.push(
      `| ${part} | ${pct(score)}${meets} | ${goal} % | ${run.map((folder) => (isWhole(folder) ? folder : `${folder} (part)`)).join(", ") || "–"} | ${missing.join(", ") || "–"} |`,
    );
  }
  const compared = folders.filter((folder) => baseline[folder]);
  if (compared.length > 0) {
    lines.push(
      "",
      "## Before and after",
      "",
      "Before: the folder's first complete run (bench/mutation-baseline.json; or the finished part of an",
      "interrupted first run, where it says so), before tests were written",
      "against its survivors. After: this report. Survivors marked equivalent in the source (below)",
      "leave the count, as Stryker's score leaves out ignored mutants.",
      "",
      "| folder | before | survived + no coverage before | after | survived + no coverage after |",
      "|---|---:|---:|---:|---:|",
    );
    for (const folder of compared) {
      const before = baseline[folder];
      const { counts, score } = tally(byFolder.get(folder));
      lines.push(
        `| ${folder} | ${pct(before.score)} (${[before.date, before.commit, before.part].filter(Boolean).join(", ")}) | ${before.counts.Survived + before.counts.NoCoverage} | ${pct(score)} | ${counts.Survived + counts.NoCoverage} |`,
      );
    }
  }
  if (runs.length > 0) {
    lines.push(
      "",
      "## Runs",
      "",
      "The latest runs, newest last (wall time on the machine that ran them).",
      "",
      "| date | command | mutated | wall time | exit |",
      "|---|---|---|---:|---:|",
      ...runs
        .slice(-12)
        .map(
          (run) =>
            `| ${run.date} | ${code(run.command)} | ${code(run.mutate)} | ${formatSeconds(run.wallSeconds)} | ${run.exitCode} |`,
        ),
    );
  }
  lines.push(
    "",
    "## Mutants no test noticed",
    "",
    "Survived: a test ran the changed code and still passed. No coverage: no test ran it at all.",
    "Each is to be killed by a test, or judged with its reason in bench/mutation-equivalent.json",
    "(equivalent, or killed by a test the runs leave out); judged ones still count against the score.",
  );
  const used = new Set();
  for (const folder of folders) {
    const unnoticed = listedByFolder
      .get(folder)
      .filter((mutant) => mutant.status === "Survived" || mutant.status === "NoCoverage")
      .sort((a, b) => a.file.localeCompare(b.file) || a.location.start.line - b.location.start.line);
    const judgement = new Map();
    for (const mutant of unnoticed) {
      const entry = judged.find((candidate) => judgedMatches(candidate, mutant));
      if (entry) {
        judgement.set(mutant, entry);
        used.add(entry);
      }
    }
    const open = unnoticed.filter((mutant) => !judgement.has(mutant));
    lines.push("", `### ${folder} (${open.length} to kill or judge, ${judgement.size} judged)`, "");
    if (open.length === 0) lines.push("None to kill or judge.");
    const describe = (mutant) => {
      const where = `${mutant.file}:${mutant.location.start.line}:${mutant.location.start.column}`;
      const status = mutant.status === "NoCoverage" ? " (no coverage)" : "";
      return `${where} ${mutant.mutatorName}${status}: ${code(oneLine(mutant.original, 60))} → ${code(oneLine(mutant.replacement ?? "", 60))}`;
    };
    for (const mutant of open) lines.push(`- ${describe(mutant)}`);
    if (judgement.size > 0)
      lines.push("", "Judged (equivalent, or killed by a test the runs leave out):", "");
    for (const [mutant, entry] of judgement)
      lines.push(`- ${describe(mutant)} — ${oneLine(entry.reason, 400)}`);
  }
  // An entry no survivor of a file with results matches is stale (killed since, or the code moved).
  const stale = judged.filter((entry) => !used.has(entry) && hasRun(entry.file));
  if (stale.length > 0) {
    lines.push(
      "",
      "Entries of bench/mutation-equivalent.json that match no survivor (killed since, or the code changed):",
      "",
      ...stale.map(
        (entry) =>
          `- ${entry.file} ${entry.mutator}: ${code(oneLine(entry.original, 60))} → ${code(oneLine(entry.replacement, 60))}`,
      ),
    );
  }
  lines.push(
    "",
    "## Mutants marked equivalent",
    "",
    "Changes no test can tell from the original (a guard that cannot be reached, a search saved, a",
    "default that is always replaced), each marked with a `// Stryker disable next-line` comment that",
    "gives the reason. Stryker reports them as ignored.",
  );
  for (const folder of folders) {
    const marked = listedByFolder
      .get(folder)
      .filter(isMarkedEquivalent)
      .sort((a, b) => a.file.localeCompare(b.file) || a.location.start.line - b.location.start.line);
    if (marked.length === 0) continue;
    lines.push("", `### ${folder} (${marked.length})`, "");
    if (!current.get(folder)) {
      // The comments may have changed since: the list is only as good as the run it came from.
      lines.push("The folder's source changed since this run: run it again for its current list.");
      continue;
    }
    for (const mutant of marked) {
      const where = `${mutant.file}:${mutant.location.start.line}:${mutant.location.start.column}`;
      const reason = oneLine(mutant.statusReason ?? "", 140);
      lines.push(
        `- ${where} ${mutant.mutatorName} → ${code(oneLine(mutant.replacement ?? "", 40))}: ${reason}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * One entry of bench/mutation-equivalent.json.
 * @typedef {{ file: string, line: string, mutator: string, original: string, replacement: string, reason: string }} JudgedEntry
 */

/**
 * Whether a judged-equivalent entry (`{ file, line, mutator, original, replacement, reason }`) is this
 * surviving (kept) mutant: matched by file, the text of the line it starts on (trimmed), mutator and
 * the exact code before and after, not by line number, so an entry survives edits elsewhere in its file.
 * @param {JudgedEntry} entry
 * @param {KeptMutant} mutant
 */
export function judgedMatches(entry, mutant) {
  return (
    entry.file === mutant.file &&
    entry.mutator === mutant.mutatorName &&
    entry.replacement === mutant.replacement &&
    entry.original === mutant.original &&
    entry.line === mutant.line
  );
}

/**
 * Where a mutant's location (lines and columns from 1) lies in its file's source, as string offsets.
 * @returns {[number, number]}
 */
export function mutantRange(source, { start, end }) {
  const lines = source.split("\n");
  const offset = ({ line, column }) =>
    lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  return [offset(start), offset(end)];
}

/** The code a mutant replaced. */
export function originalText(source, location) {
  return source.slice(...mutantRange(source, location));
}

function formatSeconds(seconds) {
  if (typeof seconds !== "number") return "–";
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds.toFixed(0)} s` : `${minutes} min ${(seconds % 60).toFixed(0)} s`;
}

function readRuns() {
  return existsSync(RUNS) ? JSON.parse(readFileSync(RUNS, "utf8")) : [];
}

/** Runs Stryker once per pass, logging each pass's command and wall time. Returns the exit code. */
function runStryker(args) {
  const chosen = Boolean(process.env.MUTATE) || args.some((arg) => /^(-m|--mutate)(=|$)/.test(arg));
  const passes = chosen
    ? [{ MUTATE: process.env.MUTATE }]
    : [{ MUTATE: FOLDERS.filter((folder) => folder.startsWith("src/")).join(",") }, { MUTATE: "worker" }];
  let exitCode = 0;
  if (restoreIncremental())
    console.log(
      `Restored ${INCREMENTAL.slice(ROOT.length + 1)} from ${INCREMENTAL_KEPT.slice(ROOT.length + 1)}`,
    );
  for (const pass of passes) {
    const env = { ...process.env };
    if (pass.MUTATE) env.MUTATE = pass.MUTATE;
    else delete env.MUTATE;
    const command =
      `${pass.MUTATE ? `MUTATE=${pass.MUTATE} ` : ""}stryker run stryker.config.mjs ${args.join(" ")}`.trim();
    console.log(`\n> ${command}\n`);
    const started = Date.now();
    // The code Stryker copies now is what it measures, whatever lands while it runs.
    const commit = gitDescribe();
    const result = spawnSync("npx", ["stryker", "run", "stryker.config.mjs", ...args], {
      cwd: ROOT,
      env,
      stdio: "inherit",
    });
    const wallSeconds = (Date.now() - started) / 1000;
    const status = result.status ?? 1;
    keepIncremental();
    const flag = args.findIndex((arg) => /^(-m|--mutate)(=|$)/.test(arg));
    const mutateArg = flag === -1 ? undefined : (args[flag]?.split("=")[1] ?? args[flag + 1]);
    mkdirSync(dirname(RUNS), { recursive: true });
    writeFileSync(
      RUNS,
      `${JSON.stringify(
        [
          ...readRuns(),
          {
            date: new Date(started).toISOString().replace(/\.\d+Z$/, "Z"),
            command,
            mutate: mutateArg ?? pass.MUTATE ?? "",
            commit,
            wallSeconds: Math.round(wallSeconds),
            exitCode: status,
          },
        ],
        null,
        2,
      )}\n`,
    );
    console.log(`\n${command}: ${formatSeconds(wallSeconds)} wall time, exit ${status}`);
    if (status !== 0) exitCode = status;
  }
  return exitCode;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, ...rest] = process.argv.slice(2);
  const exitCode = mode === "--run" ? runStryker(rest) : 0;
  const readJson = (path, fallback) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : fallback);
  let kept = readJson(KEPT, { results: [] });
  if (existsSync(REPORT)) kept = mergeKept(kept, condense(readJson(REPORT)));
  if (kept.results.length > 0) {
    writeFileSync(KEPT, `${JSON.stringify(kept)}\n`);
    // The commit the newest run measured (runs logged before it was recorded: the one checked out now).
    const baseline = extendBaseline(readJson(BASELINE, {}), kept, {
      commit: readRuns().at(-1)?.commit ?? gitDescribe(),
    });
    writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
    writeFileSync(NOTE, renderNote(kept, readRuns(), { baseline, judged: readJson(JUDGED, []) }));
    // The repository's formatter aligns the tables, so the committed note stays as `biome check` wants it.
    spawnSync("npx", ["biome", "format", "--write", NOTE, BASELINE, KEPT], { cwd: ROOT, stdio: "ignore" });
    console.log(`Wrote ${NOTE.slice(ROOT.length + 1)} and ${KEPT.slice(ROOT.length + 1)}`);
  } else {
    console.error(`No Stryker report at ${REPORT.slice(ROOT.length + 1)}: run npm run mutate first.`);
    process.exitCode = 1;
  }
  if (exitCode !== 0) process.exitCode = exitCode;
}
