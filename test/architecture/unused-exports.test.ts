/**
 * No unused exports: knip (with knip.jsonc) reads `src/`, `runtime/` and `worker/` from the package's
 * entry points, the Node testing runtime, the demo Worker, the tests, benchmarks and examples, and finds
 * no export that nothing else imports (one used only in its own file is not exported; one used nowhere
 * is not written). A fixture proves the check reports both kinds, and a trace proves the modules under
 * `src/` are read as modules, not as entry points (whose exports knip never reports). `npm run knip`
 * runs the same check.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const knip = `${root}node_modules/knip/bin/knip.js`;
/** The issue types of an export: values, types, namespace members, enum members, duplicate names. */
const EXPORT_ISSUES = "exports,types,nsExports,nsTypes,enumMembers,duplicates";

interface Issue {
  file: string;
  [type: string]: unknown;
}

/** Runs knip from `cwd` with `args`; its output (it exits non-zero when it finds something). */
async function runKnip(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [knip, ...args], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    if (error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return stdout;
}

/** Every unused export knip finds from `cwd`, as `file: name`. */
async function unusedExports(cwd: string): Promise<string[]> {
  const stdout = await runKnip(cwd, ["--include", EXPORT_ISSUES, "--reporter", "json", "--no-progress"]);
  const { issues } = JSON.parse(stdout) as { issues: Issue[] };
  return issues.flatMap((issue) =>
    EXPORT_ISSUES.split(",").flatMap((type) =>
      ((issue[type] as Array<{ name: string }> | undefined) ?? []).map(
        (found) => `${issue.file}: ${found.name}`,
      ),
    ),
  );
}

describe("unused exports", () => {
  it("there are none in src/, runtime/ and worker/", async () => {
    expect(await unusedExports(root)).toEqual([]);
  }, 60_000);

  it("the check reports an export used only in its own file, and one used nowhere", async () => {
    const fixture = `${root}test/architecture/fixtures/unused-exports`;
    expect((await unusedExports(fixture)).sort()).toEqual([
      "src/helper.ts: Limits",
      "src/helper.ts: nowhere",
      "src/helper.ts: onlyHere",
    ]);
  }, 60_000);

  it("reads the modules under src/ as modules, not as entry points", async () => {
    // knip marks an entry point's exports with ⎆ in a trace: src/index.ts is one, budget.ts is not
    // (tsup.config.ts builds every file, and knip's tsup plugin would make each an entry: "tsup": false).
    const header = async (file: string) =>
      (await runKnip(root, ["--trace-file", file])).split("\n").filter((line) => line.startsWith(file));
    const [entry, internal] = await Promise.all([header("src/index.ts"), header("src/agent/budget.ts")]);
    expect(entry.length).toBeGreaterThan(0);
    expect(entry.every((line) => line.includes("⎆"))).toBe(true);
    expect(internal.length).toBeGreaterThan(0);
    expect(internal.filter((line) => line.includes("⎆"))).toEqual([]);
  }, 60_000);
});
