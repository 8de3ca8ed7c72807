/**
 * The Vitest configuration Stryker runs (`npm run mutate`, see stryker.config.mjs): vitest.config.ts
 * with the projects `WISP_MUTATE_PROJECT` names ("node" unless set; "worker" is the "worker" and
 * "worker-paced" projects). Stryker's Vitest runner has no option to pick a project, and the two kinds
 * need different handling: the src/ folders are tested by the "node" project (Vitest's related-files
 * mode finds their tests), the demo Worker by the two worker projects inside workerd (their tests
 * reach the Worker through `exports.default.fetch`, which no import graph shows, so related mode is
 * off there).
 */
import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * Tests left out of mutation runs: they check the build (dist/, bundles, sizes, the packed package),
 * the source text (layers, unused exports, no Node names, TypeDoc, the docs' blocks type-checked
 * as one program), or run the code again in other runtimes and processes. A mutant lives in Stryker's
 * instrumented copy of src/, which none of them can see; the source-text ones would even fail on the
 * instrumentation. They all stay in `npm test`.
 */
export const NOT_FOR_MUTANTS = [
  "test/package/**",
  "test/architecture/**",
  "test/portability.test.ts",
  "test/docs/**",
  "test/examples/**",
  "test/effect/zero-bytes.test.ts",
  "test/mcp/no-code-generation.test.ts",
  "test/mcp/runtimes.test.ts",
];

/**
 * Test files that replace a module with `vi.mock` (the lazily loaded providers, or the registry to
 * watch what it loads). Vitest mocks a
 * module per test file, which needs each file in a fresh module graph; the mutation runs share one
 * graph (below), so these files are left out of them (they test src/providers, which is not mutated;
 * leaving tests out can only let more mutants survive, never kill one falsely). They stay in `npm test`.
 */
export const NEEDS_OWN_MODULES = [
  "test/providers/*-quick-delta.test.ts",
  "test/providers/*-quick-chunk.test.ts",
  "test/stream/provider-load.test.ts",
  "test/session/agent-session-edges.test.ts",
];

/**
 * One module graph for all test files of a mutant's run (Vitest's `isolate: false`). Stryker switches
 * mutants at run time (a global the instrumented code reads on every call), so the modules need not
 * be loaded again per run; loading them again was most of a mutant's cost (about 2 s of 2.5 s).
 * The tests restore what they change (timers, globals) in `finally` or `afterEach`. What they cannot
 * restore is work still in flight: Stryker stops a run at its first failing test, and a run, stream or
 * span that test started may finish during a later mutant's run. So nothing a shared helper module holds
 * may collect results across tests (a test file makes its own, as test/telemetry/in-memory-tracer.ts's
 * memoryTracer() does: a shared span exporter once gave 29 false kills). WISP_MUTATE_ISOLATE=1 isolates
 * each file as `npm test` does.
 */
export const ISOLATE = process.env.WISP_MUTATE_ISOLATE === "1";

const wanted = process.env.WISP_MUTATE_PROJECT ?? "node";
/** `wanted` and its variants: "worker" is also "worker-paced" (the same tests' other half, see vitest.config.ts). */
const isWanted = (name: unknown): boolean =>
  typeof name === "string" && (name === wanted || name.startsWith(`${wanted}-`));
const projects = (base.test?.projects ?? [])
  .filter((project) => typeof project === "object" && "test" in project && isWanted(project.test?.name))
  .map((project) =>
    typeof project === "object" && "test" in project
      ? {
          ...project,
          test: {
            ...project.test,
            // The Worker's modules load before any test, so their module-level mutants are static
            // (worker/test/mutation-setup.ts says why).
            ...(wanted === "worker" ? { setupFiles: ["worker/test/mutation-setup.ts"] } : {}),
            exclude: [
              ...(project.test?.exclude ?? configDefaults.exclude),
              ...NOT_FOR_MUTANTS,
              ...(ISOLATE ? [] : NEEDS_OWN_MODULES),
            ],
          },
        }
      : project,
  );
if (projects.length === 0) {
  throw new Error(`stryker.vitest.config.ts: vitest.config.ts has no project named "${wanted}"`);
}

/**
 * No transformed-module cache: Stryker's sandboxes share the project's node_modules, so a cache there
 * (Vitest's default, node_modules/.vitest-cache) would hand the sandbox's instrumented modules, with
 * the sandbox's paths, to the next `npm test` outside it (dynamic imports then pointed nowhere).
 */
export default defineConfig({
  ...base,
  test: { ...base.test, projects, fsModuleCache: false, isolate: ISOLATE },
});
