// @ts-check
import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
/**
 * Mutation testing with StrykerJS (`npm run mutate`; not part of `npm test`, it takes long). Stryker
 * changes the source one small step at a time (a `<` for a `<=`, a condition for `true`, a block
 * emptied) and runs the tests that cover that spot; a change no test notices "survives".
 *
 * Two passes, because the code runs in two places (Stryker's Vitest runner runs one Vitest project
 * at a time well, and the two need different settings):
 * - the src/ folders with Vitest's "node" project, in related-files mode: each mutant runs only the
 *   tests that import its file and, of those, only the ones that reached the mutant (perTest);
 * - worker/ with the "worker" project inside workerd (@cloudflare/vitest-plugin): Stryker's
 *   coverage and switching of mutants work there, since the tests, the Worker and its Durable
 *   Objects share one isolate. Related mode is off: those tests reach the Worker through
 *   `exports.default.fetch`, which no import graph shows.
 * The tests that start the Worker in another process (worker/e2e, via wrangler) cannot see a mutant,
 * so they count for src/ only.
 *
 * Which code: `npm run mutate` runs both passes over MUTATED_FOLDERS. One folder or file:
 *   MUTATE=src/http npm run mutate          (folders or globs, comma-separated)
 *   npm run mutate -- --mutate 'src/http/**\/*.ts'
 * Results are incremental (reports/stryker-incremental.json): a later run reuses every result whose
 * code and tests did not change, and keeps the results of the folders it did not run, so the
 * report (reports/mutation/mutation.json, summarised by bench/mutation-report.mjs into
 * bench/mutation-results.md) covers every folder run so far. `-- --force` runs everything again.
 */

/** The folders the mutation score is about (issue 41), and the Vitest project that tests each. */
export const MUTATED_FOLDERS = /** @type {const} */ ({
  "src/stream": "node",
  "src/http": "node",
  "src/errors": "node",
  "src/agent": "node",
  "src/session": "node",
  "src/mcp": "node",
  "src/bridge": "node",
  worker: "worker",
});

/** Never mutated: tests, test helpers, type declarations. */
export const EXCLUDED = [
  "!**/*.d.ts",
  "!**/*.test.ts",
  "!**/test/**",
  "!worker/e2e/**",
  "!worker/public/**",
  "!src/testing/**",
];

/**
 * `src/http` → `src/http/**\/*.ts`; a glob or a file stays as it is.
 * @param {string} entry
 */
export function toGlob(entry) {
  return /[*?{[]|\.[cm]?[jt]sx?$/.test(entry) ? entry : `${entry.replace(/\/+$/, "")}/**/*.ts`;
}

/**
 * The Vitest project that tests these mutate patterns ("node" or "worker"); throws when mixed.
 * @param {readonly string[]} patterns
 * @returns {"node" | "worker"}
 */
export function projectFor(patterns) {
  const positive = patterns.filter((pattern) => !pattern.startsWith("!"));
  const inWorker = positive.filter((pattern) => /^(\.\/)?worker(\/|$)/.test(pattern));
  if (inWorker.length === 0) return "node";
  if (inWorker.length === positive.length) return "worker";
  throw new Error(
    "stryker.config.mjs: mutate src/ and worker/ in separate runs (`npm run mutate` with no " +
      `arguments runs both): ${positive.join(", ")}`,
  );
}

/**
 * The `--mutate` / `-m` patterns given on Stryker's command line, if any.
 * @param {readonly string[]} argv
 */
export function mutateFromArgv(argv) {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--mutate" || arg === "-m") return (argv[i + 1] ?? "").split(",");
    if (arg.startsWith("--mutate=")) return arg.slice("--mutate=".length).split(",");
  }
  return undefined;
}

/**
 * The configuration for one pass. `env.MUTATE` (comma-separated folders or globs) picks the code;
 * without it, every src/ folder of MUTATED_FOLDERS (the worker pass sets MUTATE=worker).
 * @param {{ env?: Record<string, string | undefined>, argv?: string[] }} [options]
 * @returns {import("@stryker-mutator/api/core").PartialStrykerOptions & { mutate: string[], vitest: { configFile: string, related: boolean }, typescriptChecker: object }}
 */
export function strykerConfig({ env = process.env, argv = process.argv } = {}) {
  const fromEnv = env.MUTATE?.split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chosen =
    fromEnv && fromEnv.length > 0
      ? fromEnv.map(toGlob)
      : Object.entries(MUTATED_FOLDERS)
          .filter(([, project]) => project === "node")
          .map(([folder]) => toGlob(folder));
  const project = projectFor(mutateFromArgv(argv) ?? chosen);
  return {
    testRunner: "vitest",
    vitest: {
      // vitest.config.ts narrowed to one project (WISP_MUTATE_PROJECT, set below).
      configFile: "stryker.vitest.config.ts",
      related: project === "node",
    },
    checkers: ["typescript"],
    // The checker drops mutants that do not compile (they are not counted). src/ is checked as the
    // portable core (no Node types), worker/ with the Workers types (its tsconfig includes src too).
    tsconfigFile: project === "worker" ? "worker/tsconfig.json" : "tsconfig.src.json",
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    mutate: [...chosen, ...EXCLUDED],
    coverageAnalysis: "perTest",
    // Static mutants: code that runs only while a module loads (module-level tables, patterns,
    // constants). Stryker cannot tell which test sees them, so each would rerun every related test
    // file, about a minute for src/http (52 % of its mutants; 4-5 hours). They are reported as
    // "Ignored" and left out of the score; mutants that run both at load and in tests are tested with
    // the tests that reach them. STRYKER_STATIC=1 tests static ones too (for one file at a time).
    ignoreStatic: env.STRYKER_STATIC !== "1",
    incremental: true,
    incrementalFile: "reports/stryker-incremental.json",
    // 2 cores: one checker and one test runner while checking, then two test runners.
    concurrency: 2,
    // One module graph holds every related test file of a run (stryker.vitest.config.ts): the dry run of
    // src/agent and src/bridge together ran out of Node's default heap (twice, then Stryker gave up).
    testRunnerNodeArgs: ["--max-old-space-size=8192"],
    // A mutant's time limit: 1.5 × its tests' normal time + 10 s (a shared 2-core machine is noisy;
    // a hang is still caught, and the suite's own testTimeout is 20 s).
    timeoutFactor: 1.5,
    timeoutMS: 10_000,
    dryRunTimeoutMinutes: 30,
    reporters: ["progress", "clear-text", "json", "html"],
    clearTextReporter: { reportTests: false, reportMutants: false, skipFull: true, allowEmojis: false },
    jsonReporter: { fileName: "reports/mutation/mutation.json" },
    htmlReporter: { fileName: "reports/mutation/mutation.html" },
    thresholds: { high: 85, low: 75, break: null },
    // Not copied into Stryker's sandbox: build output and generated files no mutant needs.
    ignorePatterns: ["dist", "docs/api", "test-results", ".wrangler", "bench/.tmp", "reports"],
    tempDirName: ".stryker-tmp",
    cleanTempDir: true,
  };
}

/**
 * The tests read the shared fixtures beside the repository (`../shared/fixtures`, from the working
 * directory and from test/support). Stryker runs them in a copy at `.stryker-tmp/sandbox-*`, so the
 * same relative path must lead there too: `.stryker-tmp/shared` links to the real one. Stryker's
 * clean-up removes the sandboxes and leaves the link (a link: nothing behind it is touched).
 * @param {string} tempDirName
 */
export function linkSharedFixtures(tempDirName) {
  const shared = resolve("..", "shared");
  const link = join(tempDirName, "shared");
  if (!existsSync(shared) || lstatSync(link, { throwIfNoEntry: false })) return;
  mkdirSync(tempDirName, { recursive: true });
  symlinkSync(shared, link, "dir");
}

const config = strykerConfig();
// Only when Stryker itself loads this file (not when a test imports it).
if (/stryker(\.js)?$/.test(process.argv[1] ?? "")) linkSharedFixtures(config.tempDirName ?? ".stryker-tmp");
// Stryker's test-runner processes inherit this; stryker.vitest.config.ts reads it.
process.env.WISP_MUTATE_PROJECT = config.vitest.related ? "node" : "worker";

export default config;
