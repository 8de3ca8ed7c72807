/**
 * Forks over the bridge (issue 40), in real workers: a Node `worker_threads` worker and a module Web
 * Worker in Chromium, each running the session bundled by esbuild from the sources, driven by one
 * scenario (forks/scenario.ts): a chat with `parentId`, `branches()`, `switchBranch`, `export({ branch })`,
 * refusals crossing as typed errors, and the forked state restored into a second worker.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.ts";
import { type Check, runForkScenario } from "./forks/scenario.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** `entry` (or `contents`) bundled into one ES module for a browser or a worker thread. */
async function bundle(source: { entry: string } | { contents: string }): Promise<string> {
  const result = await build({
    ...("entry" in source
      ? { entryPoints: [source.entry] }
      : { stdin: { contents: source.contents, resolveDir: here("./forks/"), loader: "ts" as const } }),
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: ["node:*"],
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** Each check that failed, with what was seen (empty when all passed). */
function failures(checks: Check[]): Check[] {
  return checks.filter((check) => !check.ok);
}

let directory = "";
let workerFile = "";
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "wisp-forks-"));
  workerFile = join(directory, "worker.mjs");
  await writeFile(workerFile, await bundle({ entry: here("./forks/worker.ts") }));
}, 60_000);
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("forks over the bridge", () => {
  it("in a Node worker_threads worker", async () => {
    const checks = await runForkScenario(() => {
      const worker = new Worker(workerFile);
      return { port: worker as never, end: () => worker.terminate() };
    });
    expect(checks.length).toBe(9);
    expect(failures(checks)).toEqual([]);
  }, 60_000);

  describe("in Chromium", () => {
    let browser: Browser | undefined;
    let server: Server | undefined;
    let url = "";
    beforeAll(async () => {
      const files: Record<string, string> = {
        "/": `<!doctype html><meta charset="utf-8"><script type="module" src="/scenario.js"></script>`,
        "/scenario.js": await bundle({
          contents: `import { runForkScenario } from "./scenario.ts";
            globalThis.runForks = () => runForkScenario(() => {
              const worker = new Worker("/worker.js", { type: "module" });
              return { port: worker, end: () => worker.terminate() };
            });`,
        }),
        "/worker.js": await readFile(workerFile, "utf8"),
      };
      server = createServer((request, response) => {
        const body = files[request.url ?? ""];
        response.writeHead(body === undefined ? 404 : 200, {
          "content-type": request.url === "/" ? "text/html" : "text/javascript",
        });
        response.end(body ?? "");
      });
      await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => server?.close(resolve));
    });

    it("in a module Web Worker", async () => {
      const page = await (browser as Browser).newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(url);
      await page.waitForFunction(() => "runForks" in globalThis);
      const checks = (await page.evaluate(() =>
        (globalThis as unknown as { runForks: () => Promise<Check[]> }).runForks(),
      )) as Check[];
      expect(checks.length).toBe(9);
      expect(failures(checks)).toEqual([]);
      expect(errors).toEqual([]);
    }, 60_000);
  });
});
