/**
 * Approvals in the page, end to end: the real Worker (workerd via wrangler) and headless Chromium. A
 * message that needs approval pauses the run; the waiting call is shown with its arguments and
 * survives a reload, a new tab and the Worker restarting on its stored state (every Durable Object
 * recreated); approving with edited arguments from the second tab resumes the run there; the first
 * tab's stale Approve is refused and it redraws the session as it is; Deny sends the reason to the
 * model. Takes a screenshot (test-results/demo-approval.png).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "../../test/support/chromium.ts";
import { type RunningWorker, startWorker, type WorkerPlace } from "./start-worker.ts";

let place: WorkerPlace;
let worker: RunningWorker | undefined;
let browser: Browser;

/** A port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  mkdirSync("test-results", { recursive: true });
  place = { persist: mkdtempSync(join(tmpdir(), "wisp-approvals-")), port: await freePort() };
  worker = await startWorker({}, "wrangler.toml", place);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  rmSync(place.persist, { recursive: true, force: true });
});

const card = (page: Page) => page.locator(".approval");

async function open(page: Page): Promise<void> {
  await page.goto(worker?.url as string);
  await expect.poll(() => page.textContent("#model")).toContain("scripted");
}

it("a paused call survives reload, a new tab and a Worker restart; approved with edits from the other tab; denied with a reason", async () => {
  const context = await browser.newContext();
  const first = await context.newPage();
  const errors: string[] = [];
  first.on("pageerror", (error) => errors.push(error.message));
  await open(first);

  await first.fill("#prompt", 'Please send "lunch at noon?" to Ada');
  await first.click("#send");
  await expect.poll(() => card(first).count(), { timeout: 10_000 }).toBe(1);
  expect(await card(first).locator(".title").textContent()).toBe("send_message wants to run");
  expect(JSON.parse(await card(first).locator("textarea.args").inputValue())).toEqual({
    to: "Ada",
    text: "lunch at noon?",
  });
  expect(await first.textContent("#status")).toContain("waiting for your approval");
  expect(await first.textContent("#log")).toContain("send_message waits for your approval");

  // A prompt while the call waits is held back, and the words stay in the box.
  await first.fill("#prompt", "hello?");
  await first.click("#send");
  expect(await first.textContent("#status")).toBe("approve or deny the waiting tool call first");
  expect(await first.inputValue("#prompt")).toBe("hello?");
  await first.fill("#prompt", "");

  // Arguments that are not a JSON object are refused on the page; nothing is sent.
  await card(first).locator("textarea.args").fill("{ not json");
  await card(first).locator(".approve").click();
  expect(await card(first).locator(".problem").textContent()).toBe("The arguments must be a JSON object");
  expect(await card(first).count()).toBe(1);

  // A reload shows it again.
  await first.reload();
  await expect.poll(() => card(first).count(), { timeout: 10_000 }).toBe(1);

  // The Worker stops and starts again on its stored state: the Durable Object is a new one.
  await worker?.stop();
  worker = await startWorker({}, "wrangler.toml", place);

  // A new tab finds the pause in the stored session.
  const second = await context.newPage();
  second.on("pageerror", (error) => errors.push(error.message));
  await open(second);
  await expect.poll(() => card(second).count(), { timeout: 10_000 }).toBe(1);
  await second.screenshot({ path: "test-results/demo-approval.png" });

  // Approved there with edited arguments: the run resumes in that tab.
  await card(second)
    .locator("textarea.args")
    .fill(JSON.stringify({ to: "Bo", text: "noon!" }));
  await card(second).locator(".approve").click();
  await expect
    .poll(() => second.textContent("#log"), { timeout: 10_000 })
    .toContain('← send_message: Sent to Bo: "noon!"');
  await expect.poll(() => second.locator(".end").last().textContent()).toContain("complete");
  expect(await card(second).count()).toBe(0);

  // The first tab still shows the card; its Approve is refused (already decided), and it redraws.
  expect(await card(first).count()).toBe(1);
  await card(first).locator(".approve").click();
  await expect.poll(() => first.textContent("#status"), { timeout: 10_000 }).toContain("already decided");
  await expect.poll(() => first.textContent("#log"), { timeout: 10_000 }).toContain('Sent to Bo: "noon!"');
  expect(await card(first).count()).toBe(0);
  expect(await first.textContent("#log")).not.toContain("Sent to Ada");

  // Deny with a reason: the tool does not run and the model hears why.
  await second.fill("#prompt", 'send "are you there?" to Cy');
  await second.click("#send");
  await expect.poll(() => card(second).count(), { timeout: 10_000 }).toBe(1);
  await card(second).locator("input.reason").fill("not today");
  await card(second).locator(".deny").click();
  await expect
    .poll(() => second.textContent("#log"), { timeout: 10_000 })
    .toContain("send_message: The user denied this tool call: not today");
  await expect.poll(() => second.locator(".end").last().textContent()).toContain("complete");
  expect(await second.textContent("#log")).not.toContain("Sent to Cy");
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);
