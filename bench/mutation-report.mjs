/**
 * The mutation-testing results as a bench/-style note: bench/mutation-results.md, from Stryker's JSON
 * report (reports/mutation/mutation.json). The score per folder, the src/ and worker/ totals against
 * the goals (issue 41), the runs that produced them, and every mutant that no test noticed, so each
 * can be triaged (killed by a new test, or listed with the reason it is equivalent).
 *
 *   node bench/mutation-report.mjs             writes the note from the last report
 *   node bench/mutation-report.mjs --run ...   what `npm run mutate` does: runs Stryker (the src/
 *                                              pass, then the worker/ pass, unless MUTATE or
 *                                              --mutate picks the code; see stryker.config.mjs),
 *                                              times each pass, then writes the note
 *
 * Stryker's incremental mode carries the results of folders a run did not mutate into its report,
 * so the report (and this note) covers every folder run so far; a folder whose source changed since
 * its run shows it (the "current" column).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const REPORT = join(ROOT, "reports/mutation/mutation.json");
const RUNS = join(ROOT, "reports/mutation/runs.json");
/** Each folder's first complete result, before the tests written against its survivors (committed). */
const BASELINE = join(ROOT, "bench/mutation-baseline.json");
const NOTE = join(ROOT, "bench/mutation-results.md");
/**
 * Survivors judged equivalent, each with its reason (committed): mutants where a disable comment would
 * be too wide, since it silences every variant of its mutator on the line, killable ones too.
 */
const JUDGED = join(ROOT, "bench/mutation-equivalent.json");

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

/**
 * Whether TypeScript `source` has anything Stryker mutates. Its JavaScript (types removed, comments,
 * imports and re-exports too) with no call, block, string, array, regular expression or operator has
 * none: a file of types, numeric constants or re-exports gets no mutant, so Stryker's report leaves it
 * out, and a folder is whole without it.
 */
export function hasMutableCode(source) {
  const js = ts
    .transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: true },
    })
    .outputText // imports and re-exports are not mutated
    .replace(/^(?:import|export)\s[^;]*?\bfrom\s*["'][^"']*["'];?$/gm, "")
    .replace(/^import\s*["'][^"']*["'];?$/gm, "")
    .replace(/^export \{\};?$/gm, "");
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
 * The baseline with every folder that the report holds whole (each of its source files run) and the
 * baseline does not hold yet, as the report has it now: a folder's "before" is taken once, from its
 * first complete run, and kept.
 */
export function extendBaseline(
  baseline,
  report,
  { date = new Date(), commit = gitDescribe(), sources = sourcesOf } = {},
) {
  const byFolder = new Map();
  for (const [file, result] of Object.entries(report.files)) {
    const folder = folderOf(file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), ...result.mutants]);
  }
  const next = { ...baseline };
  for (const [folder, mutants] of byFolder) {
    if (next[folder] || !FOLDERS.includes(folder)) continue;
    if (!sources(folder).every((file) => file in report.files)) continue;
    const { counts, score } = tally(mutants);
    next[folder] = { date: date.toISOString().slice(0, 10), commit, score, counts };
  }
  return next;
}

/** The note, from a Stryker report and the log of runs. */
export function renderNote(
  report,
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
  const byFolder = new Map();
  const current = new Map();
  for (const [file, result] of Object.entries(report.files)) {
    const folder = folderOf(file);
    if (!byFolder.has(folder)) byFolder.set(folder, []);
    byFolder.get(folder).push(...result.mutants.map((mutant) => ({ ...mutant, file })));
    const unchanged = currentSource(file) === result.source;
    if (!unchanged) current.set(folder, false);
    else if (!current.has(folder)) current.set(folder, true);
  }
  /** Whether every source file of a folder has results in the report. */
  const isWhole = (folder) =>
    !FOLDERS.includes(folder) || sources(folder).every((file) => file in report.files);
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
    "Written by `bench/mutation-report.mjs` from Stryker's report (`reports/mutation/mutation.json`;",
    "the browsable version is `reports/mutation/mutation.html`). `npm run mutate` regenerates it; see",
    "`stryker.config.mjs` for what is mutated and how.",
    "",
    `- Written: ${date.toISOString().replace(/\.\d+Z$/, "Z")}`,
    `- Source: ${commit}`,
    `- Stryker: ${report.framework?.version ?? "?"} (${Object.entries(report.framework?.dependencies ?? {})
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
      "Before: the folder's first complete run (bench/mutation-baseline.json), before tests were written",
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
        `| ${folder} | ${pct(before.score)} (${before.date}, ${before.commit}) | ${before.counts.Survived + before.counts.NoCoverage} | ${pct(score)} | ${counts.Survived + counts.NoCoverage} |`,
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
  const originalOf = (mutant) => originalText(report.files[mutant.file]?.source ?? "", mutant.location);
  const used = new Set();
  for (const folder of folders) {
    const unnoticed = byFolder
      .get(folder)
      .filter((mutant) => mutant.status === "Survived" || mutant.status === "NoCoverage")
      .sort((a, b) => a.file.localeCompare(b.file) || a.location.start.line - b.location.start.line);
    const judgement = new Map();
    for (const mutant of unnoticed) {
      const entry = judged.find((candidate) =>
        judgedMatches(candidate, mutant, report.files[mutant.file]?.source ?? ""),
      );
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
      return `${where} ${mutant.mutatorName}${status}: ${code(oneLine(originalOf(mutant), 60))} → ${code(oneLine(mutant.replacement ?? "", 60))}`;
    };
    for (const mutant of open) lines.push(`- ${describe(mutant)}`);
    if (judgement.size > 0)
      lines.push("", "Judged (equivalent, or killed by a test the runs leave out):", "");
    for (const [mutant, entry] of judgement)
      lines.push(`- ${describe(mutant)} — ${oneLine(entry.reason, 400)}`);
  }
  // An entry no survivor of a file in this report matches is stale (killed since, or the code moved).
  const stale = judged.filter((entry) => !used.has(entry) && entry.file in report.files);
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
    const marked = byFolder
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
 * surviving mutant: matched by file, the text of the line it starts on (trimmed), mutator and the
 * exact code before and after, not by line number, so an entry survives edits elsewhere in its file.
 */
export function judgedMatches(entry, mutant, source) {
  return (
    entry.file === mutant.file &&
    entry.mutator === mutant.mutatorName &&
    entry.replacement === mutant.replacement &&
    entry.original === originalText(source, mutant.location) &&
    entry.line === (source.split("\n")[mutant.location.start.line - 1] ?? "").trim()
  );
}

/** The code a mutant replaced: its location in the file's source (lines and columns from 1). */
export function originalText(source, { start, end }) {
  const lines = source.split("\n");
  const offset = ({ line, column }) =>
    lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  return source.slice(offset(start), offset(end));
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
  for (const pass of passes) {
    const env = { ...process.env };
    if (pass.MUTATE) env.MUTATE = pass.MUTATE;
    else delete env.MUTATE;
    const command =
      `${pass.MUTATE ? `MUTATE=${pass.MUTATE} ` : ""}stryker run stryker.config.mjs ${args.join(" ")}`.trim();
    console.log(`\n> ${command}\n`);
    const started = Date.now();
    const result = spawnSync("npx", ["stryker", "run", "stryker.config.mjs", ...args], {
      cwd: ROOT,
      env,
      stdio: "inherit",
    });
    const wallSeconds = (Date.now() - started) / 1000;
    const status = result.status ?? 1;
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
  if (existsSync(REPORT)) {
    const report = JSON.parse(readFileSync(REPORT, "utf8"));
    const baseline = extendBaseline(
      existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, "utf8")) : {},
      report,
    );
    writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
    const judged = existsSync(JUDGED) ? JSON.parse(readFileSync(JUDGED, "utf8")) : [];
    writeFileSync(NOTE, renderNote(report, readRuns(), { baseline, judged }));
    // The repository's formatter aligns the tables, so the committed note stays as `biome check` wants it.
    spawnSync("npx", ["biome", "format", "--write", NOTE, BASELINE], { cwd: ROOT, stdio: "ignore" });
    console.log(`Wrote ${NOTE.slice(ROOT.length + 1)}`);
  } else {
    console.error(`No Stryker report at ${REPORT.slice(ROOT.length + 1)}: run npm run mutate first.`);
    process.exitCode = 1;
  }
  if (exitCode !== 0) process.exitCode = exitCode;
}
