/**
 * The package as published: publint (strict) finds nothing, and Are The Types Wrong finds no problem
 * in any resolution mode it checks. Wisp ships ES modules (one per source file) and CommonJS (one
 * file per entry point), each with its own declarations. Both lint the tarball `npm pack` makes of
 * the built dist/.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { publint } from "publint";
import { expect, it } from "vitest";

it("publint --strict reports no problems", async () => {
  const { messages } = await publint({ pkgDir: ".", strict: true, pack: "npm" });
  expect(messages).toEqual([]);
}, 60_000);

it("attw reports no problem for any entry point in any resolution mode (node10, node16 from CJS and ESM, bundler)", async () => {
  const { stdout } = await promisify(execFile)(
    "node_modules/.bin/attw",
    ["--pack", ".", "--format", "json"],
    {
      maxBuffer: 32 * 1024 * 1024,
    },
  );
  const report = JSON.parse(stdout) as {
    analysis: { entrypoints: Record<string, { resolutions: Record<string, unknown> }> };
    problems: Record<string, unknown[]>;
  };
  expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([
    ".",
    "./bridge",
    "./effect",
    "./formats",
    "./mcp",
    "./mcp/stdio",
    "./package.json",
    "./testing",
    "./testing/node",
  ]);
  for (const entry of Object.values(report.analysis.entrypoints)) {
    expect(Object.keys(entry.resolutions).sort()).toEqual(["bundler", "node10", "node16-cjs", "node16-esm"]);
  }
  expect(report.problems).toEqual({});
}, 60_000);
