/**
 * Runs one bridge scenario with its session in real workers: a Node `worker_threads` worker, and a
 * module Web Worker in Chromium (the scenario's page and worker bundled for the browser by esbuild from
 * the sources, served on 127.0.0.1), so no build is needed. The scenario resolves to its failed checks;
 * the page puts them in `body[data-result]`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgePort } from "../../src/bridge/index.ts";
import { launchChromium } from "./chromium.ts";

/** A worker the scenario talks to, and how to end it. */
export type StartWorker = () => { port: BridgePort; end: () => unknown };

/** One scenario: its worker and page files, and the scenario itself (its failed checks). */
export interface BridgeScenario {
  /** The worker's file (it serves the session on its port; see bridge-worker-port.ts). */
  worker: URL;
  /** The Chromium page's file: it runs the scenario against `/worker.js` and reports in `body[data-result]`. */
  page: URL;
  /** The scenario, given a way to start workers: resolves to the checks that failed. */
  run: (start: StartWorker) => Promise<string[]>;
}

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

/** Defines the two tests: `what` passes in a worker thread, and in a Chromium module Web Worker. */
export function scenarioInRuntimes(what: string, scenario: BridgeScenario): void {
  it(`a worker_threads worker: ${what}`, async () => {
    const failed = await scenario.run(() => {
      const worker = new Worker(scenario.worker);
      return { port: worker, end: () => worker.terminate() };
    });
    expect(failed).toEqual([]);
  }, 60_000);

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
        "/page.js": ["text/javascript", await bundle(scenario.page)],
        "/worker.js": ["text/javascript", await bundle(scenario.worker)],
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

    it(`a module Web Worker: ${what}, with no page error`, async () => {
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
}
