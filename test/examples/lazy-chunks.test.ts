/**
 * In real Chromium, from the built ES modules with no bundler (the browser example's server): the
 * tool machinery is a module of its own that a page fetches only when a run needs it. A run without
 * tools or hooks never requests it; a run with a tool does, and runs the tool.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.ts";
import { startExample } from "./run-example.ts";

let browser: Browser | undefined;
afterAll(() => browser?.close());

const MACHINERY = "/dist/src/agent/tool-machinery.js";

/** A page on the example's origin that runs `script` (a module body) and shows what it returns. */
function pageWith(script: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": {
  "wisp-agent": "/dist/src/index.js",
  "wisp-agent/testing": "/dist/src/testing/index.js"
} }</script>
<script type="module">
import { defineTool, runAgent } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
const result = await (async () => { ${script} })();
document.body.dataset.result = JSON.stringify(result);
</script></head><body></body></html>`;
}

/** Opens `script`'s page; returns its result and the paths it requested. */
async function run(page: Page, base: string, script: string): Promise<{ result: unknown; paths: string[] }> {
  const paths: string[] = [];
  page.on("request", (request) => paths.push(new URL(request.url()).pathname));
  await page.route(`${base}/lazy-check.html`, (route) =>
    route.fulfill({ contentType: "text/html", body: pageWith(script) }),
  );
  await page.goto(`${base}/lazy-check.html`);
  await page.waitForSelector("body[data-result]", { state: "attached", timeout: 30_000 });
  return { result: JSON.parse((await page.getAttribute("body", "data-result")) ?? "null"), paths };
}

it("Chromium fetches the tool code only for a run that has a tool", async () => {
  const server = await startExample(process.execPath, ["examples/browser/serve.mjs"]);
  try {
    browser = await launchChromium();
    const chat = await run(
      await browser.newPage(),
      server.url,
      `const model = createScriptedModel({ script: [{ content: [{ type: "text", text: "Hello" }] }] });
       const result = await runAgent({ model: "anthropic/claude-sonnet-4-5", apiKey: "k", fetch: model.fetch, prompt: "hi" });
       return result.ok && result.value.text;`,
    );
    expect(chat.result).toBe("Hello");
    expect(chat.paths).toContain("/dist/src/agent/agent-loop.js");
    expect(chat.paths).not.toContain(MACHINERY);

    const withTool = await run(
      await browser.newPage(),
      server.url,
      `const model = createScriptedModel({ script: [
         { content: [{ type: "tool_call", name: "add", args: { a: 2, b: 3 } }] },
         { content: [{ type: "text", text: "5" }] },
       ] });
       const add = defineTool({ name: "add", description: "Adds",
         inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
         execute: ({ a, b }) => String(a + b) });
       const result = await runAgent({ model: "anthropic/claude-sonnet-4-5", apiKey: "k", fetch: model.fetch, prompt: "2 + 3?", tools: [add] });
       return result.ok && [result.value.text, result.value.toolCalls[0].result.output];`,
    );
    expect(withTool.result).toEqual(["5", "5"]);
    expect(withTool.paths).toContain(MACHINERY);
    expect(withTool.paths).toContain("/dist/src/agent/run-tool-calls.js");
  } finally {
    server.child.kill();
  }
}, 60_000);
