/**
 * The page's session list, end to end: the real Worker (workerd via wrangler) and headless Chromium.
 * Two sessions with a message each are listed with their titles (from the Worker's summaries, `GET
 * /api/sessions`); choosing one shows its conversation; a session this page holds no token for is not
 * listed; choosing a session whose run is going reattaches to it as a reload would; the list survives a
 * reload; Delete removes a session. Takes a screenshot (test-results/demo-sessions.png).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { openPage, useDemo } from "./use-demo.ts";

const OUT = "test-results";
const LONG_PROMPT = "Tell me about Wisp";

const demo = useDemo();

beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
});

interface ListedItem {
  id: string;
  title: string;
  meta: string;
  current: boolean;
}

/** The sessions the page lists, top to bottom. */
const listed = (page: Page): Promise<ListedItem[]> =>
  page.evaluate(() =>
    [...document.querySelectorAll("#sessions li")].map((item) => ({
      id: (item as HTMLElement).dataset.id ?? "",
      title: item.querySelector(".session-title")?.textContent ?? "",
      meta: item.querySelector(".session-meta")?.textContent ?? "",
      current: item.querySelector("button.session")?.getAttribute("aria-current") === "true",
    })),
  );

/** The titles listed, each with whether the Worker lists it (its message count is shown) and is current. */
const titles = async (page: Page) =>
  (await listed(page)).map(
    (item) =>
      `${item.title}${/\d+ messages?/.test(item.meta) ? "" : " (unlisted)"}${item.current ? " *" : ""}`,
  );

const assistantText = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".assistant .text")].map((node) => node.textContent).join("|"),
  );

const current = (page: Page): Promise<{ sessionId: string; token: string }> =>
  page.evaluate(() => JSON.parse(localStorage.getItem("wisp-demo-session") ?? "null"));

async function ask(page: Page, text: string, tool: string): Promise<void> {
  await page.fill("#prompt", text);
  await page.click("#send");
  await expect.poll(() => page.textContent("#log"), { timeout: 15_000 }).toContain(`← ${tool}`);
  await expect.poll(() => page.locator(".end").last().textContent()).toContain("complete");
}

/** Clicks the listed session titled `title`. */
const choose = (page: Page, title: string) =>
  page
    .locator("#sessions button.session", { has: page.locator(".session-title", { hasText: title }) })
    .click();

it("lists two sessions by title, switches between them, reattaches a running one, keeps the list through a reload", async () => {
  const { context, page, errors } = await openPage(demo);
  expect(await listed(page)).toEqual([]);
  expect(await page.getByRole("heading", { name: "Your sessions" }).count()).toBe(1);

  // A client secret of 32 URL-safe characters, kept by the page.
  const secret = await page.evaluate(() => localStorage.getItem("wisp-demo-client") ?? "");
  expect(secret).toMatch(/^[\w-]{32}$/);

  await ask(page, "What is 12 * 7?", "calculator: 84");
  const first = await current(page);
  await page.click("#new");
  await expect.poll(async () => (await current(page)).sessionId).not.toBe(first.sessionId);
  expect(await page.locator(".turn").count()).toBe(0);
  await ask(page, "What is the time in Europe/Oslo?", "clock:");
  const second = await current(page);

  // Both are listed from the Worker's summaries, newest first, the current one marked.
  await expect
    .poll(() => titles(page), { timeout: 10_000 })
    .toEqual(["What is the time in Europe/Oslo? *", "What is 12 * 7?"]);
  const items = await listed(page);
  expect(items.map((item) => item.id)).toEqual([second.sessionId, first.sessionId]);
  expect(items[1]?.meta).toMatch(/^idle · 4 messages( · \$\d+\.\d+)? · updated .+/);
  const tokens = await page.evaluate(() => JSON.parse(localStorage.getItem("wisp-demo-sessions") ?? "{}"));
  expect(tokens).toEqual({ [first.sessionId]: first.token, [second.sessionId]: second.token });

  // A session of this client the page holds no token for is listed by the Worker, not by the page.
  const stranger = await fetch(`${demo.worker.url}/api/sessions`, {
    method: "POST",
    headers: { "wisp-client": secret },
  });
  expect(stranger.status).toBe(201);
  const strangerId = ((await stranger.json()) as { sessionId: string }).sessionId;
  await expect
    .poll(async () => {
      const response = await fetch(`${demo.worker.url}/api/sessions`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      const { sessions } = (await response.json()) as { sessions: { sessionId: string }[] };
      return sessions.map((summary) => summary.sessionId).includes(strangerId);
    })
    .toBe(true);

  // Switching shows each conversation, and refreshes the list (without the stranger).
  await choose(page, "What is 12 * 7?");
  await expect.poll(() => page.textContent("#log")).toContain("← calculator: 84");
  expect(await page.textContent("#log")).not.toContain("← clock:");
  expect((await current(page)).sessionId).toBe(first.sessionId);
  await expect.poll(() => titles(page)).toEqual(["What is the time in Europe/Oslo?", "What is 12 * 7? *"]);
  await choose(page, "What is the time in Europe/Oslo?");
  await expect.poll(() => page.textContent("#log")).toContain("← clock:");
  expect(await page.textContent("#log")).not.toContain("← calculator: 84");
  expect(await page.locator(".turn.user").count()).toBe(1);

  // A run going in the first session (started elsewhere, followed by this test): choosing the session
  // draws the conversation, then replays and follows the run to its end, once.
  const run = await fetch(`${demo.worker.url}/api/sessions/${first.sessionId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${first.token}`, "content-type": "application/json" },
    body: JSON.stringify({ text: LONG_PROMPT }),
  });
  expect(run.status).toBe(200);
  const runDone = run.text();
  await choose(page, "What is 12 * 7?");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain(LONG_PROMPT);
  expect(await page.textContent("#log")).toContain("← calculator: 84");
  // The replayed run's own end (the earlier exchange is drawn from the saved state, without one).
  await expect.poll(() => page.locator(".end", { hasText: "complete" }).count(), { timeout: 15_000 }).toBe(1);
  await runDone;
  const state = await (
    await fetch(`${demo.worker.url}/api/sessions/${first.sessionId}/export`, {
      headers: { authorization: `Bearer ${first.token}` },
    })
  ).json();
  const answer = state.messages.at(-1).content[0].text as string;
  const texts = await assistantText(page);
  expect(texts.endsWith(answer)).toBe(true);
  expect(texts.split(answer).length).toBe(2);
  expect(await page.locator(".turn.user").count()).toBe(2);
  // The list follows the run's end: the first session is now the newest, with its six messages.
  await expect
    .poll(async () => (await listed(page)).map((item) => item.meta.split(" · updated")[0]), {
      timeout: 10_000,
    })
    .toEqual([expect.stringMatching(/^idle · 6 messages/), expect.stringMatching(/^idle · 4 messages/)]);
  expect(await titles(page)).toEqual(["What is 12 * 7? *", "What is the time in Europe/Oslo?"]);

  // A reload keeps the list and shows the current session.
  await page.reload();
  await expect
    .poll(() => titles(page), { timeout: 10_000 })
    .toEqual(["What is 12 * 7? *", "What is the time in Europe/Oslo?"]);
  await expect.poll(() => page.textContent("#log")).toContain(LONG_PROMPT);
  await choose(page, "What is the time in Europe/Oslo?");
  await expect.poll(() => page.textContent("#log")).toContain("← clock:");
  await page.screenshot({ path: join(OUT, "demo-sessions.png"), fullPage: true });

  // Delete (confirmed) removes the current session: its token goes, the list keeps the other one.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete What is the time in Europe/Oslo?" }).click();
  await expect.poll(() => page.textContent("#status")).toContain("session deleted");
  expect(await page.locator(".turn").count()).toBe(0);
  expect(await current(page)).toBeNull();
  await expect.poll(() => titles(page), { timeout: 10_000 }).toEqual(["What is 12 * 7?"]);
  const gone = await fetch(`${demo.worker.url}/api/sessions/${second.sessionId}/export`, {
    headers: { authorization: `Bearer ${second.token}` },
  });
  expect(gone.status).toBe(404);

  expect(errors).toEqual([]);
  await context.close();
}, 90_000);
