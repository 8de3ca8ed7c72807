/**
 * Permission policies across the bridge in real workers (issue 40): the scenario of
 * permissions/scenario.ts — set the worker session's policy from the main thread, see it decide the
 * next runs, export it signed, restore it in another worker, have a loosened copy refused — with the
 * session in a Node `worker_threads` worker and in a module Web Worker in Chromium. Both run against
 * the sources (the Chromium page and worker are bundled by esbuild here), so no build is needed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.ts";
import { runPermissionsScenario } from "./permissions/scenario.ts";

const WORKER = new URL("./permissions/worker.ts", import.meta.url);

it("a worker_threads worker: the policy set from the main thread decides, survives a restore, and refuses a loosened copy", async () => {
  const failed = await runPermissionsScenario(() => {
    const worker = new Worker(WORKER);
    return { port: worker, end: () => worker.terminate() };
  });
  expect(failed).toEqual([]);
}, 60_000);

/** `entry` bundled for the browser as one ES module (the worker's Node-only branch left out). */
async function bundle(entry: URL): Promise<string> {
  const built = await build({
    entryPoints: [entry.pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: ["node:*"],
    write: false,
    logLevel: "silent",
  });
  return built.outputFiles[0]?.text ?? "";
}

describe("chromium", () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = "";
  beforeAll(async () => {
    const files: Record<string, [string, string]> = {
      "/": [
        "text/html",
        '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/page.js"></script><body></body>',
      ],
      "/page.js": ["text/javascript", await bundle(new URL("./permissions/page.ts", import.meta.url))],
      "/worker.js": ["text/javascript", await bundle(WORKER)],
    };
    server = createServer((request, response) => {
      const file = files[request.url ?? ""];
      response.writeHead(file === undefined ? 404 : 200, { "content-type": file?.[0] ?? "text/plain" });
      response.end(file?.[1] ?? "not found");
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("a module Web Worker: the same scenario passes, with no page error", async () => {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${origin}/`);
    await page.waitForSelector("body[data-result]", { state: "attached", timeout: 30_000 });
    expect(JSON.parse((await page.getAttribute("body", "data-result")) ?? "null")).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
