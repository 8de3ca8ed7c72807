/**
 * Every runtime example runs the same portability scenario (examples/shared/scenario.js) in its real
 * runtime — Node 22 and the oldest Node `engines` admits (20.19.0, fetched from npm), Deno and Bun from their npm packages, Chromium via
 * playwright-core, workerd via wrangler — and must report all of its checks passed. A last test shows
 * the scenario's checks do fail when the model answers otherwise.
 */
import { execFileSync } from "node:child_process";
import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { runScenario } from "../../examples/shared/scenario.js";
import { createScriptedModel } from "../../src/testing/index.ts";
import { startWorker } from "../../worker/e2e/start-worker.ts";
import { launchChromium } from "../support/chromium.ts";
import { minimumNode, minimumNodeVersion } from "../support/minimum-node.ts";
import { expectAllPassed as expectReport, runExample, startExample } from "./run-example.ts";

const CHECKS = 8;
const BIN = "node_modules/.bin";

/** The scenario's report is whole and clean, and names the tool it ran. */
function expectAllPassed(report: string): void {
  expectReport(report, CHECKS);
  expect(report).toContain("calculator");
}

describe("examples, each in its real runtime", () => {
  it("node 22 (the project's toolchain)", async () => {
    const run = await runExample(process.execPath, ["examples/node/scenario.mjs"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`node ${process.version},`);
    expectAllPassed(run.stdout);
    expect(run.code).toBe(0);
  });

  it("node 20.19.0 (the oldest the package claims, from npm)", async () => {
    const node = minimumNode();
    const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    expect(version).toBe(`v${minimumNodeVersion()}`);
    const run = await runExample(node, ["examples/node/scenario.mjs"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`node ${version},`);
    expectAllPassed(run.stdout);
    expect(run.code).toBe(0);
  });

  it("deno", async () => {
    const run = await runExample(`${BIN}/deno`, [
      "run",
      "--unstable-no-legacy-abort",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "examples/deno/main.ts",
    ]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^deno 2\./);
    expectAllPassed(run.stdout);
    expect(run.code).toBe(0);
  });

  it("bun", async () => {
    const run = await runExample(`${BIN}/bun`, ["examples/bun/main.ts"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^bun 1\./);
    expectAllPassed(run.stdout);
    expect(run.code).toBe(0);
  });

  describe("chromium", () => {
    let browser: Browser | undefined;
    afterAll(() => browser?.close());

    it("a plain <script type=module> page importing the built ES modules", async () => {
      const server = await startExample(process.execPath, ["examples/browser/serve.mjs"]);
      try {
        browser = await launchChromium();
        const page = await browser.newPage();
        const errors: string[] = [];
        const failedRequests: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        page.on("requestfailed", (request) =>
          failedRequests.push(`${new URL(request.url()).pathname} ${request.failure()?.errorText}`),
        );
        await page.goto(`${server.url}/`);
        await page.waitForSelector("body[data-result]", { timeout: 30_000 });
        const report = (await page.textContent("#log")) ?? "";
        expect(report).toContain("Chrome/");
        expectAllPassed(report);
        expect(await page.getAttribute("body", "data-result")).toBe("passed");
        expect(errors).toEqual([]);
        // The one request the scenario aborts; a finished stream is read to its end, not cancelled.
        expect(failedRequests).toEqual(["/v1/messages net::ERR_ABORTED"]);
      } finally {
        server.child.kill();
      }
    }, 60_000);
  });

  it("workerd (a minimal Worker, via wrangler)", async () => {
    const worker = await startWorker({}, "examples/worker/wrangler.toml");
    try {
      const response = await fetch(worker.url);
      const report = await response.text();
      expect(report).toMatch(/^workerd/);
      expectAllPassed(report);
      expect(response.status).toBe(200);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});

it("the scenario fails its checks when the model answers otherwise", async () => {
  const wrong = createScriptedModel({ respond: () => ({ content: [{ type: "text", text: "No." }] }) });
  const lines: string[] = [];
  const failed = await runScenario({
    connection: { fetch: wrong.fetch },
    disconnects: () => wrong.disconnects,
    log: (line) => lines.push(line),
  });
  expect(failed).toBeGreaterThanOrEqual(5);
  expect(lines.filter((line) => line.startsWith("FAIL ")).length).toBe(failed);
  expect(lines.at(-1)).toBe(`FAILED: ${failed} of ${CHECKS} checks failed`);
});
