/**
 * The MCP scenario (examples/mcp/scenario.js) in every real runtime, each against its own official
 * SDK server on 127.0.0.1, through the built package (`npm run build` first): Node 22 and Node 20.19
 * (the oldest `engines` admits) with `--disallow-code-generation-from-strings`, Deno with the same V8 flag, Bun, Chromium on a page whose
 * CSP has no 'unsafe-eval', and workerd (which refuses code generation itself) in a Worker without
 * `nodejs_compat`. Each must pass every check, and the server must have seen both the aborted and
 * the timed-out call cancelled.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { staticFiles } from "../../examples/shared/static-files.mjs";
import { startWorker } from "../../worker/e2e/start-worker.ts";
import { expectAllPassed, runExample } from "../examples/run-example.ts";
import { launchChromium } from "../support/chromium.ts";
import { minimumNode } from "../support/minimum-node.ts";
import { startOfficialServer } from "./support/official-server.mjs";

const CHECKS = 10;
const BIN = "node_modules/.bin";

/** Runs `body` against a fresh server, then checks the server saw two calls cancelled. */
async function withServer(
  body: (url: string) => Promise<string>,
  fallback?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  const server = await startOfficialServer(fallback === undefined ? {} : { fallback });
  try {
    const report = await body(server.url);
    expectAllPassed(report, CHECKS);
    await expect.poll(() => server.log.cancelled.length).toBe(2);
    return report;
  } finally {
    await server.close();
  }
}

describe("the MCP scenario, each in its real runtime", () => {
  it.each([
    [
      "node, code generation disallowed",
      process.execPath,
      ["--disallow-code-generation-from-strings", "examples/mcp/node.mjs"],
      /^node v/,
      "refused",
    ],
    [
      "deno, code generation disallowed",
      `${BIN}/deno`,
      [
        "run",
        "--allow-net=127.0.0.1",
        "--allow-read",
        "--v8-flags=--disallow-code-generation-from-strings",
        "examples/mcp/deno.ts",
      ],
      /^deno 2\./,
      "refused",
    ],
    ["bun", `${BIN}/bun`, ["examples/mcp/bun.ts"], /^bun 1\./, "allowed"],
    [
      "node 20.19.0 (the oldest engines admits), code generation disallowed",
      "(minimum node)",
      ["--disallow-code-generation-from-strings", "examples/mcp/node.mjs"],
      /^node v20\.19\.0,/,
      "refused",
    ],
  ])(
    "%s",
    async (_name, command, args, banner, codeGeneration) => {
      const report = await withServer(async (url) => {
        const run = await runExample(command === "(minimum node)" ? minimumNode() : command, [...args, url]);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        return run.stdout;
      });
      expect(report).toMatch(banner);
      expect(report).toContain(`code generation from strings: ${codeGeneration}`);
    },
    90_000,
  );

  describe("chromium", () => {
    let browser: Browser | undefined;
    afterAll(() => browser?.close());

    it("a module page under a CSP without 'unsafe-eval', same origin as the server", async () => {
      const files = staticFiles(process.cwd(), ["dist/", "examples/mcp/"]);
      const fallback = (req: IncomingMessage, res: ServerResponse): void => {
        void files(req.url ?? "/").then(async (response) => {
          res.writeHead(response.status, {
            "content-type": response.headers.get("content-type") ?? "text/plain",
            "content-security-policy": "default-src 'self'; img-src data:; script-src 'self' 'unsafe-inline'",
          });
          res.end(Buffer.from(await response.arrayBuffer()));
        });
      };
      browser = await launchChromium();
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      const report = await withServer(async (url) => {
        await page.goto(url.replace(/\/mcp$/, "/examples/mcp/index.html"));
        await page.waitForSelector("body[data-result]", { timeout: 60_000 });
        return (await page.textContent("#log")) ?? "";
      }, fallback);
      expect(report).toContain("code generation from strings: refused");
      expect(errors).toEqual([]);
    }, 90_000);
  });

  it("workerd (a Worker without nodejs_compat, via wrangler)", async () => {
    const worker = await startWorker({}, "examples/mcp/wrangler.toml");
    try {
      const report = await withServer(async (url) => {
        const response = await fetch(`${worker.url}/?url=${encodeURIComponent(url)}`);
        const text = await response.text();
        expect(response.status, text).toBe(200);
        return text;
      });
      expect(report).toMatch(/^workerd/);
      expect(report).toContain("code generation from strings: refused");
    } finally {
      await worker.stop();
    }
  }, 90_000);
});
