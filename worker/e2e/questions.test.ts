/**
 * Questions in the page, end to end: the real Worker (workerd via wrangler) and headless Chromium.
 * "ask me …" has the demo model call the ask tool: the run pauses and the page shows a card with the
 * questions and their options; it survives a reload; Send without an answer is refused on the page;
 * the answers picked and written reach the model, and the run goes on. Skip tells the model the
 * questions went unanswered. Takes a screenshot (test-results/demo-question.png).
 */
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { openPage, useDemo } from "./use-demo.ts";

const demo = useDemo();

const card = (page: Page) => page.locator(".question");

it("a question pauses the run and survives a reload; answered, the model reads the answers; skipped, it reads that", async () => {
  mkdirSync("test-results", { recursive: true });
  const { context, page, errors } = await openPage(demo);

  await page.fill("#prompt", "ask me about a drink");
  await page.click("#send");
  await expect.poll(() => card(page).count(), { timeout: 10_000 }).toBe(1);
  expect(await card(page).locator(".title").textContent()).toBe("The assistant asks you 2 questions");
  expect(await card(page).locator("legend").allTextContents()).toEqual([
    "Drink Which drink should I suggest?",
    "Extras What would you like with it?",
  ]);
  expect(await card(page).locator("fieldset").nth(0).locator("input[type=radio]").count()).toBe(2);
  expect(await card(page).locator("fieldset").nth(1).locator("input[type=checkbox]").count()).toBe(3);
  expect(await page.textContent("#status")).toContain("waiting for your answers");
  expect(await page.textContent("#log")).toContain("ask_user asks you 2 question(s)");

  // A prompt while the question waits is held back.
  await page.fill("#prompt", "hello?");
  await page.click("#send");
  expect(await page.textContent("#status")).toBe("answer or skip the waiting questions first");
  expect(await page.inputValue("#prompt")).toBe("hello?");
  await page.fill("#prompt", "");

  // A reload shows the question again, from the saved session.
  await page.reload();
  await expect.poll(() => card(page).count(), { timeout: 10_000 }).toBe(1);
  await page.screenshot({ path: "test-results/demo-question.png" });

  // Send with the second question unanswered is refused on the page; nothing is sent.
  await card(page).locator("input[value=Tea]").check();
  await card(page).locator(".answer").click();
  expect(await card(page).locator(".problem").textContent()).toBe(
    "Answer every question: pick an option or write your own",
  );

  await card(page).locator("input[value=Milk]").check();
  await card(page).locator("input[value=Cake]").check();
  await card(page).locator("fieldset").nth(1).locator("input.own").fill("oat milk, please");
  await card(page).locator(".answer").click();
  await expect
    .poll(() => page.textContent("#log"), { timeout: 10_000 })
    .toContain('"What would you like with it?": Milk, Cake and wrote "oat milk, please"');
  expect(await page.textContent("#log")).toContain("← ask_user: The user answered your questions:");
  expect(await page.textContent("#log")).toContain('"Which drink should I suggest?": Tea');
  await expect
    .poll(() => page.locator(".end").last().textContent(), { timeout: 10_000 })
    .toContain("complete");
  expect(await card(page).count()).toBe(0);

  // Skipped: the model is told the questions went unanswered, and the run goes on.
  await page.fill("#prompt", "ask me again");
  await page.click("#send");
  await expect.poll(() => card(page).count(), { timeout: 10_000 }).toBe(1);
  await card(page).locator(".skip").click();
  await expect
    .poll(() => page.textContent("#log"), { timeout: 10_000 })
    .toContain("← ask_user: The user did not answer your questions (the user skipped the questions)");
  await expect
    .poll(() => page.locator(".end").last().textContent(), { timeout: 10_000 })
    .toContain("complete");
  expect(await card(page).count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);
