/**
 * The demo end to end: the real Worker (workerd via wrangler) on 127.0.0.1, its page in headless
 * Chromium. Prompt → streamed text → Stop → export → reload → import → continue. Takes a screenshot
 * (test-results/demo-page.png).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { fromPi } from "../../src/formats/index.ts";
import { FIXTURES } from "../../test/support/fixtures.ts";
import { useDemo } from "./use-demo.ts";

const OUT = "test-results";

const demo = useDemo();

beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
});

const assistantText = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".assistant .text")].map((node) => node.textContent).join("|"),
  );

it("prompt → streamed text → Stop → export → reload → import → continue", async () => {
  const context = await demo.browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(demo.worker.url);
  await expect.poll(() => page.textContent("#model")).toContain("scripted");

  // A long answer streams in…
  await page.fill("#prompt", "Tell me about Wisp");
  await page.click("#send");
  await expect.poll(async () => (await assistantText(page)).length, { timeout: 10_000 }).toBeGreaterThan(40);
  const streaming = (await assistantText(page)).length;
  await expect.poll(async () => (await assistantText(page)).length).toBeGreaterThan(streaming);

  // …and Stop stops it: the text no longer grows, and the page says so.
  await page.click("#stop");
  await expect.poll(() => page.textContent("#status")).toBe("stopped");
  const stopped = await assistantText(page);
  await page.waitForTimeout(400);
  expect(await assistantText(page)).toBe(stopped);
  expect(stopped.length).toBeLessThan(400);

  // A tool call shows up with its result.
  await page.fill("#prompt", "What is 12 * 7?");
  await page.click("#send");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain("← calculator: 84");
  await expect.poll(() => page.locator(".end").last().textContent()).toContain("complete");

  // Export to a file.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  const file = join(OUT, "demo-session.json");
  await download.saveAs(file);
  const state = JSON.parse(readFileSync(file, "utf8"));
  expect(state.version).toBe(2);
  expect(state.messages.length).toBe(6); // user, stopped answer, user, tool call, results, answer

  // Reload, import the file as a new session, and continue it.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect.poll(() => page.textContent("#status")).toBe("ready");
  expect(await page.locator(".turn").count()).toBe(0);
  await page.setInputFiles("#import", file);
  await expect.poll(() => page.textContent("#status")).toBe("imported 6 messages");
  expect(await page.textContent("#log")).toContain("← calculator: 84");
  await page.fill("#prompt", "And the time in Europe/Oslo?");
  await page.click("#send");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain("← clock:");
  await expect.poll(() => page.locator(".end").last().textContent()).toContain("complete");

  // The continued session holds the imported history and the new exchange, under a new id.
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem("wisp-demo-session") ?? "null"));
  expect(session.sessionId).not.toBe(state.sessionId);
  const continued = await (
    await fetch(`${demo.worker.url}/api/sessions/${session.sessionId}/export`, {
      headers: { authorization: `Bearer ${session.token}` },
    })
  ).json();
  expect(continued.messages.slice(0, 6)).toEqual(state.messages.map((m: object) => ({ ...m })));
  expect(continued.messages.length).toBe(10);

  await page.screenshot({ path: join(OUT, "demo-page.png"), fullPage: true });
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);

it("import a Claude Code transcript → continue it → export it as a pi session", async () => {
  const context = await demo.browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(demo.worker.url);
  await expect.poll(() => page.textContent("#status")).toBe("ready");

  const transcript = join(FIXTURES, "sessions/claude-code-short.jsonl");
  await page.setInputFiles("#import", transcript);
  await expect.poll(() => page.textContent("#status")).toBe("imported 4 messages from Claude Code");
  expect(await page.textContent("#log")).toContain("mix phx.server doesnt seem to start");

  await page.fill("#prompt", "What is 12 * 7?");
  await page.click("#send");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain("← calculator: 84");
  await expect.poll(() => page.locator(".end").last().textContent()).toContain("complete");

  await page.selectOption("#export-format", "pi");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  expect(download.suggestedFilename()).toMatch(/^pi-session-[\w-]+\.jsonl$/);
  const file = join(OUT, "demo-session-pi.jsonl");
  await download.saveAs(file);
  await expect.poll(() => page.textContent("#status")).toMatch(/^exported as pi JSONL \(\d+ lines\)$/);

  const read = await fromPi(readFileSync(file, "utf8"));
  if (!read.ok) throw read.error;
  expect(read.value.warnings).toEqual([]);
  const texts = JSON.stringify(read.value.state.messages);
  expect(texts).toContain("mix phx.server doesnt seem to start");
  expect(texts).toContain("What is 12 * 7?");
  expect(read.value.state.messages.at(-1)?.role).toBe("assistant");
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);
