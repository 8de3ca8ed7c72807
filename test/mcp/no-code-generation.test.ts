/**
 * The MCP client's own tests again, in Node processes that refuse code generation from strings
 * (`--disallow-code-generation-from-strings` through NODE_OPTIONS, so every worker vitest starts has
 * it): the official server, the client and Wisp's schema checker all run there. The checker test
 * asserts the flag really holds in those processes (WISP_NO_CODE_GENERATION=1).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

const FILES = [
  "test/mcp/connect-mcp.test.ts",
  "test/mcp/failures.test.ts",
  "test/mcp/json-schema-check.test.ts",
];

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ name: string; status: string }>;
}

it("the client's tests pass in Node with --disallow-code-generation-from-strings", async () => {
  const directory = mkdtempSync(join(tmpdir(), "wisp-mcp-no-eval-"));
  const output = join(directory, "report.json");
  try {
    const args = [
      "node_modules/vitest/vitest.mjs",
      "run",
      "--project",
      "node",
      "--reporter=json",
      `--outputFile=${output}`,
      ...FILES,
    ];
    const env = {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --disallow-code-generation-from-strings`.trim(),
      WISP_NO_CODE_GENERATION: "1",
      NO_COLOR: "1",
    };
    const child = spawn(process.execPath, ["--disallow-code-generation-from-strings", ...args], {
      env,
      stdio: "ignore",
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    const report = JSON.parse(readFileSync(output, "utf8")) as JsonReport;
    expect(report.testResults.map((file) => file.status)).toEqual(["passed", "passed", "passed"]);
    expect(report.numFailedTests).toBe(0);
    expect(report.numPendingTests).toBe(0);
    expect(report.numPassedTests).toBeGreaterThanOrEqual(40);
    expect(code).toBe(0);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}, 180_000);
