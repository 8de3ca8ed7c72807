/**
 * Forks in the page, end to end: the real Worker (workerd via wrangler) and headless Chromium. Two
 * prompts; the second edited and sent again continues from the first answer (the old exchange kept as
 * a branch); the branch switcher shows both and switches, which the Worker saves (a reload shows the
 * branch switched to); the first prompt edited starts the conversation anew. The API refuses a
 * parentId that names no message, an unknown leaf, and an import whose branches do not connect.
 * Takes a screenshot (test-results/demo-forks.png).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { openPage, useDemo } from "./use-demo.ts";

const OUT = "test-results";

const demo = useDemo();

beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
});

/** The session the page shows: its id and token. */
const current = (page: Page): Promise<{ sessionId: string; token: string }> =>
  page.evaluate(() => JSON.parse(localStorage.getItem("wisp-demo-session") ?? "null"));

/** The branch switcher's options: their labels and which is selected. */
const switcher = (page: Page) =>
  page.evaluate(() => {
    const select = document.querySelector<HTMLSelectElement>("#branches");
    return {
      hidden: select?.hidden ?? true,
      options: [...(select?.options ?? [])].map((option) => [option.textContent ?? "", option.selected]),
    };
  });

/** Sends a prompt from the prompt box and waits for its run to end. */
async function ask(page: Page, text: string, shows: string): Promise<void> {
  await page.fill("#prompt", text);
  await page.click("#send");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain(shows);
  await expect.poll(() => page.isEnabled("#send"), { timeout: 10_000 }).toBe(true);
}

/** Edits the `index`-th prompt the log shows to `text`, sends it, and waits for the run to end. */
async function editPrompt(page: Page, index: number, text: string, shows: string): Promise<void> {
  await page.locator(".turn.user").nth(index).locator("button.edit").click();
  await page.fill(".edit-prompt", text);
  await page.click(".edit-send");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain(shows);
  await expect.poll(() => page.isEnabled("#send"), { timeout: 10_000 }).toBe(true);
}

/** A call of the session's API with its token. */
async function call(page: Page, path: string, init: RequestInit = {}): Promise<Response> {
  const { sessionId, token } = await current(page);
  return fetch(`${demo.worker.url}/api/sessions/${sessionId}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  });
}

it("edit an earlier prompt and continue from there; switch between the branches; reload keeps the switch", async () => {
  const { context, page, errors } = await openPage(demo);
  await ask(page, "What is 2 + 3?", "← calculator: 5");
  await ask(page, "What is 4 * 5?", "← calculator: 20");
  expect((await switcher(page)).hidden).toBe(true);

  // The second prompt, edited: the run continues from the first answer, the old exchange gone from the log.
  await editPrompt(page, 1, "What is 6 * 7?", "← calculator: 42");
  expect(await page.textContent("#log")).not.toContain("← calculator: 20");
  expect(await page.locator(".turn.user").count()).toBe(2);
  await expect
    .poll(() => switcher(page))
    .toEqual({
      hidden: false,
      options: [
        [expect.stringContaining("What is 4 * 5?"), false],
        [expect.stringContaining("What is 6 * 7?"), true],
      ],
    });

  // The Worker stored both: the export holds the old exchange as a branch after the first answer.
  const state = (await (await call(page, "/export")).json()) as {
    messages: { id: string; role: string }[];
    branches: { parentId: string; messages: { role: string }[] }[];
  };
  expect(state.branches).toHaveLength(1);
  expect(state.branches[0]?.parentId).toBe(state.messages[3]?.id);
  expect(state.messages[4]?.role).toBe("user");

  // The switcher makes the old branch active again; a reload shows it, as the Worker saved it.
  const old = await page.evaluate(
    () => document.querySelector<HTMLSelectElement>("#branches")?.options[0]?.value,
  );
  await page.selectOption("#branches", old ?? "");
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain("← calculator: 20");
  expect(await page.textContent("#log")).not.toContain("← calculator: 42");
  await page.reload();
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain("← calculator: 20");
  expect(await page.textContent("#log")).not.toContain("← calculator: 42");
  await expect
    .poll(() => switcher(page))
    .toEqual({
      hidden: false,
      options: [
        [expect.stringContaining("What is 4 * 5?"), true],
        [expect.stringContaining("What is 6 * 7?"), false],
      ],
    });

  // Continuing the switched-to branch appends to it.
  await ask(page, "What is 9 - 1?", "← calculator: 8");
  const after = (await (await call(page, "/export")).json()) as { messages: unknown[] };
  expect(after.messages).toHaveLength(12);

  // The first prompt, edited: the conversation starts anew, and all three branches are listed.
  await editPrompt(page, 0, "What is 1 + 1?", "the tools said: 2.");
  expect(await page.locator(".turn.user").count()).toBe(1);
  await expect.poll(async () => (await switcher(page)).options.length).toBe(3);
  await page.screenshot({ path: join(OUT, "demo-forks.png"), fullPage: true });
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);

it("the API refuses a parentId that names no message, an unknown leaf, and an import whose branches do not connect", async () => {
  const { context, page } = await openPage(demo);
  await ask(page, "What is 2 + 3?", "← calculator: 5");
  const fork = await call(page, "/messages", {
    method: "POST",
    body: JSON.stringify({ text: "hi", parentId: "no-such-message" }),
  });
  expect(fork.status).toBe(400);
  expect(((await fork.json()) as { error: { code: string } }).error.code).toBe("BRANCH_INVALID");
  const badType = await call(page, "/messages", {
    method: "POST",
    body: JSON.stringify({ text: "hi", parentId: 7 }),
  });
  expect(badType.status).toBe(400);
  const unknown = await call(page, "/branches", { method: "POST", body: JSON.stringify({ leafId: "nope" }) });
  expect(unknown.status).toBe(400);
  expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("BRANCH_INVALID");
  const listed = (await (await call(page, "/branches")).json()) as { branches: { active: boolean }[] };
  expect(listed.branches).toEqual([expect.objectContaining({ active: true, title: "What is 2 + 3?" })]);

  const state = (await (await call(page, "/export")).json()) as Record<string, unknown> & {
    messages: { id: string }[];
  };
  const crafted = {
    ...state,
    branches: [{ parentId: "ghost", messages: [{ ...state.messages[0], id: "fresh" }] }],
  };
  const imported = await fetch(`${demo.worker.url}/api/sessions/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(crafted),
  });
  expect(imported.status).toBe(400);
  await context.close();
}, 60_000);
