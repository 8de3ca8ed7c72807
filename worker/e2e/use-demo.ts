/**
 * The demo under test: the real Worker (workerd via wrangler, fresh local state) and headless
 * Chromium, started before a test file's tests and stopped after them.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { launchChromium } from "../../test/support/chromium.ts";
import { type RunningWorker, startWorker } from "./start-worker.ts";

/** The running Worker and browser (set once `beforeAll` has run). */
export interface Demo {
  worker: RunningWorker;
  browser: Browser;
}

/** Registers the hooks that start and stop the demo and a browser; read the fields inside tests. */
export function useDemo(): Demo {
  const demo = {} as Demo;
  beforeAll(async () => {
    demo.worker = await startWorker();
    demo.browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await demo.browser?.close();
    await demo.worker?.stop();
  });
  return demo;
}

/** A fresh page on the demo, loaded until it says it is ready, with its page errors collected. */
export async function openPage(
  demo: Demo,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await demo.browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(demo.worker.url);
  await expect.poll(() => page.textContent("#status")).toBe("ready");
  return { context, page, errors };
}
