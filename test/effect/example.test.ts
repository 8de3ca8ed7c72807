/**
 * examples/effect/agent.ts runs as a user would run it (Node, type stripping, against the published
 * build through the package's own exports) and passes every one of its checks.
 */
import { expect, it } from "vitest";
import { runExample } from "../examples/run-example.ts";

it("the Effect example runs to its end with every check passed", async () => {
  const run = await runExample(process.execPath, [
    "--experimental-strip-types",
    "--no-warnings",
    "examples/effect/agent.ts",
  ]);
  expect(run.stderr).toBe("");
  expect(run.stdout).not.toContain("FAIL");
  expect(run.stdout.match(/^ok {3}/gm)).toHaveLength(6);
  expect(run.stdout).toContain('the session kept "Once " (aborted)');
  expect(run.stdout.trim().split("\n").at(-1)).toBe("all checks passed");
  expect(run.code).toBe(0);
}, 60_000);
