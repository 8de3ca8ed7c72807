/**
 * The package as published: publint (strict) finds nothing, and Are The Types Wrong finds no problem
 * for ESM consumers (node16 from ESM, bundler). Wisp is ESM-only, so the CommonJS resolutions
 * (node10, node16 from CJS) are out of scope, which is attw's `esm-only` profile. Both lint the
 * tarball `npm pack` makes of the built dist/.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { publint } from "publint";
import { expect, it } from "vitest";

it("publint --strict reports no problems", async () => {
  const { messages } = await publint({ pkgDir: ".", strict: true, pack: "npm" });
  expect(messages).toEqual([]);
}, 60_000);

/** The resolutions attw's `esm-only` profile ignores. */
const IGNORED = ["node10", "node16-cjs"];

it("attw (esm-only profile) reports no problems for any entry point", async () => {
  const { stdout } = await promisify(execFile)(
    "node_modules/.bin/attw",
    ["--pack", ".", "--profile", "esm-only", "--format", "json"],
    { maxBuffer: 32 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as {
    analysis: { entrypoints: Record<string, unknown> };
    problems: Record<string, { entrypoint: string; resolutionKind: string }[]>;
  };
  expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([
    ".",
    "./package.json",
    "./testing",
    "./testing/node",
  ]);
  const esmProblems = Object.values(report.problems)
    .flat()
    .filter((problem) => !IGNORED.includes(problem.resolutionKind));
  expect(esmProblems).toEqual([]);
  // The ones ignored are exactly the CommonJS ones (the JSON lists them whatever the profile).
  expect(Object.keys(report.problems).sort()).toEqual(["CJSResolvesToESM", "NoResolution"]);
}, 60_000);
