/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, a dev dependency) against
 * Wisp's client: every client scenario the CLI lists (`conformance list`, read at collection time, not
 * a hard-coded list) runs `conformance client --scenario <name>` with test/mcp/conformance/wisp-client.ts
 * as the client and must pass: the CLI exits 0, and every check in its `checks.json` is SUCCESS (or
 * INFO, which the suite uses for notes that are no verdict, e.g. the attempt log of scope-retry-limit).
 *
 * The suite needs Node 22: the CLI and the client run on the `node` package's binary
 * (node_modules/.bin/node), the client straight from the TypeScript sources with
 * `--experimental-strip-types` (no build needed). Results go to a temporary directory (`-o`), with
 * the CLI's working directory there too. Scenarios run a few at a time (each starts its own servers on
 * free ports), so the file takes seconds.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const node22 = join(root, "node_modules/.bin/node");
const cli = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const client = join(root, "test/mcp/conformance/wisp-client.ts");
const command = `${node22} --experimental-strip-types --no-warnings ${client}`;

/** The client scenarios `conformance list` prints, in its order. */
function clientScenarios(): string[] {
  const listed = execFileSync(node22, [cli, "list"], { encoding: "utf8" });
  const section = listed.slice(listed.indexOf("Client scenarios"));
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] ?? "");
}

const scenarios = clientScenarios();
const output = mkdtempSync(join(tmpdir(), "wisp-conformance-"));
afterAll(() => rmSync(output, { recursive: true, force: true }));

/** How many scenarios run at once. */
const CONCURRENCY = 6;
let running = 0;
const waiting: Array<() => void> = [];
async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

interface Check {
  id: string;
  status: string;
  description: string;
}

/** Runs one scenario: the CLI's exit code and output, and the checks it saved. */
function runScenario(scenario: string): Promise<{ code: number; text: string; checks: Check[] }> {
  return limited(
    () =>
      new Promise((resolve) => {
        const args = [
          cli,
          "client",
          "--command",
          command,
          "--scenario",
          scenario,
          "-o",
          output,
          "--timeout",
          "30000",
        ];
        execFile(
          node22,
          args,
          { cwd: output, encoding: "utf8", timeout: 60_000 },
          (error, stdout, stderr) => {
            const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
            const folder = join(output, ...scenario.split("/").slice(0, -1));
            const name = scenario.split("/").at(-1) ?? scenario;
            const runs = existsSync(folder)
              ? readdirSync(folder).filter((entry) => entry.startsWith(`${name}-`))
              : [];
            const checks = runs.flatMap(
              (run) => JSON.parse(readFileSync(join(folder, run, "checks.json"), "utf8")) as Check[],
            );
            resolve({ code, text: `${stdout}\n${stderr}`, checks });
          },
        );
      }),
  );
}

describe("the official MCP conformance suite's client scenarios", () => {
  it("lists the 26 client scenarios Wisp is measured by", () => {
    expect(scenarios).toHaveLength(26);
    expect(scenarios).toContain("initialize");
    expect(scenarios.filter((scenario) => scenario.startsWith("auth/"))).toHaveLength(22);
  });

  describe.concurrent("each passes", () => {
    for (const scenario of scenarios) {
      it(`passes ${scenario}`, { timeout: 90_000 }, async () => {
        const { code, text, checks } = await runScenario(scenario);
        const notPassed = checks.filter((check) => check.status !== "SUCCESS" && check.status !== "INFO");
        expect(notPassed, text).toEqual([]);
        expect(checks.filter((check) => check.status === "SUCCESS").length, text).toBeGreaterThan(0);
        expect(code, text).toBe(0);
      });
    }
  });
});
