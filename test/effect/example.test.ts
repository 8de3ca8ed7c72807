/**
 * examples/effect/agent.ts runs as a user would run it — in Node (type stripping), Bun and Deno,
 * against the published build through the package's own exports — and passes every one of its checks.
 */
import { expect, it } from "vitest";
import { runExample } from "../examples/run-example.ts";

const EXAMPLE = "examples/effect/agent.ts";
const BIN = "node_modules/.bin";

const RUNTIMES: Array<[string, string, string[]]> = [
  ["node", process.execPath, ["--experimental-strip-types", "--no-warnings", EXAMPLE]],
  ["bun", `${BIN}/bun`, [EXAMPLE]],
  ["deno", `${BIN}/deno`, ["run", "--allow-net=127.0.0.1", "--allow-read", EXAMPLE]],
];

for (const [runtime, command, args] of RUNTIMES) {
  it(`the Effect example runs to its end in ${runtime} with every check passed`, async () => {
    const run = await runExample(command, args);
    expect(run.stderr).toBe("");
    expect(run.stdout).not.toContain("FAIL");
    expect(run.stdout.match(/^ok {3}/gm)).toHaveLength(6);
    expect(run.stdout).toContain('the session kept "Once " (aborted)');
    expect(run.stdout.trim().split("\n").at(-1)).toBe("all checks passed");
    expect(run.code).toBe(0);
  }, 60_000);
}
