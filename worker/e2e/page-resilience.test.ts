/**
 * The demo page when things go wrong, in headless Chromium against the real Worker (workerd via
 * wrangler): a 503 while loading, a network failure during import, a reload in the middle of a run,
 * a connection that drops mid-answer, a session the server no longer has, and U+2028 in the text.
 */
import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { openPage, useDemo } from "./use-demo.ts";

const demo = useDemo();

const LONG_PROMPT = "Tell me about Wisp";

const assistantText = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".assistant .text")].map((node) => node.textContent).join("|"),
  );

const stored = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem("wisp-demo-session") ?? "null"));

async function ask(page: Page, text: string): Promise<void> {
  await page.fill("#prompt", text);
  await page.click("#send");
}

async function completed(page: Page, count: number): Promise<void> {
  await expect
    .poll(() => page.locator(".end", { hasText: "complete" }).count(), { timeout: 15_000 })
    .toBe(count);
}

async function exported(session: { sessionId: string; token: string }) {
  const response = await fetch(`${demo.worker.url}/api/sessions/${session.sessionId}/export`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return response.json();
}

it("a 503 while loading keeps the session and loads it once the server answers", async () => {
  const { context, page, errors } = await openPage(demo);
  await ask(page, "What is 12 * 7?");
  await completed(page, 1);
  const before = await stored(page);

  let refused = 0;
  await page.route("**/api/sessions/*/export", async (route) => {
    if (refused++ < 2) {
      await route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "UNAVAILABLE", message: "try later" } }),
      });
    } else {
      await route.continue();
    }
  });
  await page.reload();
  await expect.poll(() => page.textContent("#status")).toContain("it is kept");
  expect(await stored(page)).toEqual(before);
  await expect.poll(() => page.textContent("#log"), { timeout: 15_000 }).toContain("← calculator: 84");
  expect(refused).toBeGreaterThanOrEqual(3);
  expect(await stored(page)).toEqual(before);
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);

it("a session the server no longer has is forgotten, and the next message starts a new one", async () => {
  const { context, page } = await openPage(demo);
  await ask(page, "What is 2 + 3?");
  await completed(page, 1);
  const gone = await stored(page);
  await fetch(`${demo.worker.url}/api/sessions/${gone.sessionId}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${gone.token}` },
  });
  await page.reload();
  await expect.poll(() => page.textContent("#status")).toContain("no longer exists");
  expect(await stored(page)).toBeNull();
  await ask(page, "What is 3 + 4?");
  await completed(page, 1);
  expect((await stored(page)).sessionId).not.toBe(gone.sessionId);
  await context.close();
}, 60_000);

it("a network failure during import keeps the current session, and the next prompt continues it", async () => {
  const { context, page, errors } = await openPage(demo);
  await ask(page, "What is 6 * 7?");
  await completed(page, 1);
  const current = await stored(page);

  await page.route("**/api/sessions/import", (route) => route.abort("internetdisconnected"));
  await page.setInputFiles("#import", {
    name: "other.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(await exported(current))),
  });
  await expect.poll(() => page.textContent("#status")).toContain("import failed");
  expect(await page.textContent("#status")).toContain("your session is kept");
  expect(await stored(page)).toEqual(current);

  await ask(page, "What is 8 * 9?");
  await completed(page, 2);
  expect(await stored(page)).toEqual(current);
  const state = await exported(current);
  const prompts = state.messages.filter((message: { role: string }) => message.role === "user");
  expect(prompts.map((message: { content: { text: string }[] }) => message.content[0]?.text)).toEqual([
    "What is 6 * 7?",
    "What is 8 * 9?",
  ]);
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);

it("a reload in the middle of a run reattaches to it and shows the whole answer once", async () => {
  const { context, page, errors } = await openPage(demo);
  await ask(page, "What is 1 + 1?");
  await completed(page, 1);
  await ask(page, LONG_PROMPT);
  await expect.poll(async () => (await assistantText(page)).length, { timeout: 10_000 }).toBeGreaterThan(120);

  await page.reload();
  await expect.poll(() => page.textContent("#log"), { timeout: 10_000 }).toContain(LONG_PROMPT);
  await completed(page, 1); // the replayed run's own end
  const state = await exported(await stored(page));
  const answer = state.messages.at(-1).content[0].text as string;
  expect(state.messages.at(-1).stopReason).toBe("complete");
  // The earlier exchange is drawn from the saved state, the run from its log: each exactly once.
  expect(await page.locator(".turn.user").count()).toBe(2);
  expect(await page.textContent("#log")).toContain("← calculator: 2");
  const texts = await assistantText(page);
  expect(texts.endsWith(answer)).toBe(true);
  expect(texts.split(answer).length).toBe(2);
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);

it("a message whose response is lost is found again: the page replays the run from the Worker", async () => {
  const { context, page, errors } = await openPage(demo);
  const attached: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/events")) attached.push(request.url());
  });
  // The run's response never reaches the page (cut after 2 s; the answer takes about 3 s to stream).
  await page.route("**/api/sessions/*/messages", async (route) => {
    const response = await route.fetch({ timeout: 2_000 }).catch(() => undefined);
    if (response === undefined) return route.abort("connectionreset");
    await route.fulfill({ response });
  });
  await ask(page, LONG_PROMPT);
  await completed(page, 1);
  const state = await exported(await stored(page));
  const answer = state.messages.at(-1).content[0].text as string;
  expect(await assistantText(page)).toBe(answer);
  expect(attached.length).toBeGreaterThanOrEqual(1);
  expect(attached[0]).not.toContain("after=");
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);

it("a connection lost mid-answer is resumed after the last event seen, with nothing missed or doubled", async () => {
  // A proxy in front of the Worker cuts the run's stream after its first 2 KB, as a lost signal would.
  const proxy = await startCuttingProxy(demo.worker.url, 2048);
  const context = await demo.browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const attached: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/events")) attached.push(request.url());
  });
  try {
    await page.goto(proxy.url);
    await expect.poll(() => page.textContent("#status")).toBe("ready");
    await ask(page, LONG_PROMPT);
    await completed(page, 1);
    const state = await exported(await stored(page));
    const answer = state.messages.at(-1).content[0].text as string;
    expect(state.messages.at(-1).stopReason).toBe("complete");
    expect(proxy.cut).toBe(1);
    expect(await assistantText(page)).toBe(answer);
    expect(attached.length).toBe(1);
    expect(attached[0]).toMatch(/after=[0-9a-f-]+%3A\d+$/);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    await proxy.close();
  }
}, 60_000);

it("U+2028 and U+2029 in streamed text arrive as text", async () => {
  const { context, page, errors } = await openPage(demo);
  await ask(page, "one\u2028two\u2029three");
  await completed(page, 1);
  const texts = await assistantText(page);
  expect(texts).toContain("one\u2028two\u2029three");
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);

/**
 * An HTTP proxy on 127.0.0.1 to `target` that destroys the connection of the first run stream (a
 * POST to …/messages) once `limit` bytes of it have passed; `cut` counts how many it cut.
 */
async function startCuttingProxy(
  target: string,
  limit: number,
): Promise<{ url: string; cut: number; close(): Promise<void> }> {
  const upstream = new URL(target);
  const state = { cut: 0 };
  const server = createServer((incoming, outgoing) => {
    const cutThis = state.cut === 0 && incoming.method === "POST" && incoming.url?.endsWith("/messages");
    const request = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        let passed = 0;
        response.on("data", (chunk: Buffer) => {
          if (cutThis && passed + chunk.byteLength > limit) {
            state.cut++;
            outgoing.destroy();
            response.destroy();
            return;
          }
          passed += chunk.byteLength;
          outgoing.write(chunk);
        });
        response.on("end", () => outgoing.end());
      },
    );
    request.on("error", () => outgoing.destroy());
    incoming.pipe(request);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get cut() {
      return state.cut;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
