/**
 * The bridge scenario (examples/bridge/scenario.js) in every real runtime with workers — Node
 * `worker_threads`, Deno and Bun workers, a module Web Worker in Chromium — and the example page,
 * driven as a person would: a prompt, the approval dialog answered both ways, a stopped story. Runs
 * against the built package (`npm run build` first).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllPassed as expectReport, runExample, startExample } from "../examples/run-example.ts";
import { launchChromium } from "../support/chromium.ts";

const CHECKS = 13;
const BIN = "node_modules/.bin";

const expectAllPassed = (report: string) => expectReport(report, CHECKS);

describe("the bridge scenario, each in its real runtime", () => {
  it.each([
    ["node worker_threads", process.execPath, ["examples/bridge/node.mjs"], /^node v/],
    ["deno", `${BIN}/deno`, ["run", "--allow-read", "examples/bridge/deno.ts"], /^deno 2\./],
    ["bun", `${BIN}/bun`, ["examples/bridge/bun.ts"], /^bun 1\./],
  ])(
    "%s",
    async (_name, command, args, banner) => {
      const run = await runExample(command, args);
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(banner);
      expectAllPassed(run.stdout);
      expect(run.code).toBe(0);
    },
    90_000,
  );
});

describe("chromium", () => {
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof startExample>> | undefined;
  beforeAll(async () => {
    server = await startExample(process.execPath, ["examples/bridge/serve.mjs"]);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    server?.child.kill();
  });

  async function open(path: string): Promise<{ page: Page; errors: string[] }> {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${server?.url}${path}`);
    return { page, errors };
  }

  it("the scenario, the session in a module Web Worker", async () => {
    const { page, errors } = await open("/examples/bridge/scenario.html");
    await page.waitForSelector("body[data-result]", { timeout: 60_000 });
    const report = (await page.textContent("#log")) ?? "";
    expect(report).toContain("Chrome/");
    expectAllPassed(report);
    expect(errors).toEqual([]);
  }, 90_000);

  it("the example page streams the worker's answer and asks for approval in a dialog", async () => {
    const { page, errors } = await open("/examples/bridge/");
    await page.waitForSelector("body[data-ready]");
    const runs = (count: number) => page.waitForSelector(`body[data-runs="${count}"]`, { timeout: 20_000 });

    await page.fill("input[name=text]", 'send "hi" to ada');
    await page.click("button[type=submit]");
    await page.waitForSelector("dialog[open]");
    expect(await page.textContent("#tool")).toBe("send_message");
    expect(JSON.parse((await page.textContent("#args")) ?? "{}")).toEqual({ to: "ada", text: "hi" });
    await page.click("#approve");
    await runs(1);
    expect(await page.textContent("#answer")).toBe('Done: sent "hi" to ada');

    await page.fill("input[name=text]", 'send "rm -rf" to bob');
    await page.click("button[type=submit]");
    await page.waitForSelector("dialog[open]");
    await page.fill("#reason", "not to bob");
    await page.click("#deny");
    await runs(2);
    expect(await page.textContent("#answer")).toBe("Done: The user denied this tool call: not to bob");

    await page.fill("input[name=text]", "tell a long story");
    await page.click("button[type=submit]");
    await page.waitForFunction(() => (document.getElementById("answer")?.textContent ?? "").length > 40);
    await page.click("#stop");
    await runs(3);
    expect(await page.textContent("#status")).toMatch(/^Ended: ABORTED/);
    expect(errors).toEqual([]);
  }, 60_000);
});
