/**
 * `npm run mutate` is wired (issue 41): the script runs Stryker and then the report, outside
 * `npm test`; its two passes together mutate every source file of the folders the score is about
 * (src/stream, src/http, src/errors, src/agent, src/session, src/mcp, src/bridge, worker/) and no
 * test, test helper or type declaration; each pass picks the Vitest project that tests its code.
 * Reads the configuration only: Stryker itself does not run here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, matchesGlob } from "node:path";
import { describe, expect, it } from "vitest";
import config, {
  MUTATED_FOLDERS,
  mutateFromArgv,
  projectFor,
  strykerConfig,
  toGlob,
} from "../../stryker.config.mjs";
import { NEEDS_OWN_MODULES } from "../../stryker.vitest.config.ts";

const ISSUE_FOLDERS = [
  "src/stream",
  "src/http",
  "src/errors",
  "src/agent",
  "src/session",
  "src/mcp",
  "src/bridge",
  "worker",
];

/** Every file under `dir`, as a path relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Stryker's rule: a file is mutated when a pattern matches it and no later `!` pattern removes it. */
function mutated(patterns: readonly string[], file: string): boolean {
  let result = false;
  for (const pattern of patterns) {
    if (pattern.startsWith("!")) {
      if (matchesGlob(file, pattern.slice(1))) result = false;
    } else if (matchesGlob(file, pattern)) result = true;
  }
  return result;
}

const srcPass = strykerConfig({ env: {}, argv: [] });
const workerPass = strykerConfig({ env: { MUTATE: "worker" }, argv: [] });
const bothPasses = [...srcPass.mutate, ...workerPass.mutate];
const candidates = ["src", "worker", "test"].flatMap(filesUnder);
const isMutated = (file: string) => mutated(srcPass.mutate, file) || mutated(workerPass.mutate, file);

describe("npm run mutate", () => {
  it("runs Stryker and then the report, and is not part of npm test", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.scripts.mutate).toBe("node bench/mutation-report.mjs --run");
    expect(readFileSync("bench/mutation-report.mjs", "utf8")).toContain('spawnSync("npx", ["stryker", "run"');
    expect(pkg.scripts.test).not.toMatch(/mutat|stryker/);
    for (const name of [
      "@stryker-mutator/core",
      "@stryker-mutator/vitest-runner",
      "@stryker-mutator/typescript-checker",
    ]) {
      expect(pkg.devDependencies[name], name).toBeDefined();
    }
  });

  it("names exactly the issue's folders", () => {
    expect(Object.keys(MUTATED_FOLDERS).sort()).toEqual([...ISSUE_FOLDERS].sort());
  });

  it("mutates every source file of those folders, in one pass or the other", () => {
    for (const folder of ISSUE_FOLDERS) {
      const sources = filesUnder(folder).filter(
        (file) =>
          file.endsWith(".ts") &&
          !file.endsWith(".d.ts") &&
          !file.endsWith(".test.ts") &&
          !/^worker\/(test|e2e|public)\//.test(file),
      );
      expect(sources.length, folder).toBeGreaterThan(0);
      expect(
        sources.filter((file) => !isMutated(file)),
        folder,
      ).toEqual([]);
    }
  });

  it("mutates no test, test helper, type declaration or other folder", () => {
    const wrong = candidates.filter(
      (file) =>
        isMutated(file) &&
        (file.endsWith(".test.ts") ||
          file.endsWith(".d.ts") ||
          /^(test|worker\/test|worker\/e2e|src\/testing)\//.test(file) ||
          !ISSUE_FOLDERS.some((folder) => file.startsWith(`${folder}/`))),
    );
    expect(wrong).toEqual([]);
    expect(bothPasses).toContain("!**/*.d.ts");
  });

  it("tests src/ with the node project in related mode, worker/ with the worker project (workerd)", () => {
    expect(projectFor(srcPass.mutate)).toBe("node");
    expect(srcPass.vitest).toEqual({ configFile: "stryker.vitest.config.ts", related: true });
    expect(projectFor(workerPass.mutate)).toBe("worker");
    expect(workerPass.vitest).toEqual({ configFile: "stryker.vitest.config.ts", related: false });
    expect(() => projectFor(["src/http/**/*.ts", "worker/app.ts"])).toThrow(/separate runs/);
    // One folder from the command line or MUTATE picks the project as well.
    expect(mutateFromArgv(["node", "stryker", "run", "--mutate", "worker/app.ts"])).toEqual([
      "worker/app.ts",
    ]);
    expect(strykerConfig({ env: {}, argv: ["--mutate=worker/app.ts"] }).vitest.related).toBe(false);
    expect(strykerConfig({ env: { MUTATE: "src/http, src/errors" }, argv: [] }).mutate.slice(0, 2)).toEqual([
      "src/http/**/*.ts",
      "src/errors/**/*.ts",
    ]);
    expect(toGlob("src/http/read-sse.ts")).toBe("src/http/read-sse.ts");
  });

  it("uses the Vitest runner, the TypeScript checker, per-test coverage and incremental results", () => {
    expect(config).toMatchObject({
      testRunner: "vitest",
      checkers: ["typescript"],
      coverageAnalysis: "perTest",
      incremental: true,
      incrementalFile: "reports/stryker-incremental.json",
      jsonReporter: { fileName: "reports/mutation/mutation.json" },
    });
    expect(config.concurrency).toBeLessThanOrEqual(2);
    expect(readFileSync(".gitignore", "utf8").split("\n")).toEqual(
      expect.arrayContaining(["reports/", ".stryker-tmp/"]),
    );
  });

  it("leaves every test file that replaces a module with vi.mock out of the runs that share one module graph", () => {
    const mocking = filesUnder("test").filter(
      (file) => file.endsWith(".test.ts") && /^\s*vi\.mock\(/m.test(readFileSync(file, "utf8")),
    );
    expect(mocking.length).toBeGreaterThan(0);
    for (const file of mocking) {
      expect(
        NEEDS_OWN_MODULES.some((pattern) => matchesGlob(file, pattern)),
        file,
      ).toBe(true);
    }
  });
});
