/**
 * The demo's MCP server and MCP tools end to end: the real Worker (workerd via wrangler) on
 * 127.0.0.1. Wisp's `connectMcp` reaches `/mcp` over real HTTP; the page, in headless Chromium, saves
 * a note and lists it, showing the MCP tool calls like any other.
 */
import { expect, it } from "vitest";
import { connectMcp } from "../../src/mcp/index.ts";
import { toolContext } from "../../test/support/tool-context.ts";
import { useDemo } from "./use-demo.ts";

const demo = useDemo();

const context = toolContext();

it("connectMcp reaches the Worker's /mcp over HTTP and saves a note there", async () => {
  const connected = await connectMcp({ url: `${demo.worker.url}/mcp`, prefix: "notes_" });
  if (!connected.ok) throw connected.error;
  const mcp = connected.value;
  expect(mcp.tools.map((tool) => tool.name).sort()).toEqual([
    "notes_add",
    "notes_delete",
    "notes_list",
    "notes_read",
  ]);
  const saved = await mcp.tools
    .find((tool) => tool.name === "notes_add")
    ?.execute({ title: "Via HTTP", text: "x" }, context);
  expect(String(saved)).toMatch(/^Saved note \w+: Via HTTP$/);
  await mcp.close();
});

it("the page shows the agent's MCP tool calls like any other", async () => {
  const page = await demo.browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(demo.worker.url);
  await expect.poll(() => page.textContent("#model")).toContain("scripted");

  await page.fill("#prompt", "note: water the plants");
  await page.click("#send");
  await expect
    .poll(() => page.textContent("#log"), { timeout: 10_000 })
    .toMatch(/← notes_add: Saved note \w+: water the plants/);
  await expect.poll(() => page.locator(".end").last().textContent()).toContain("complete");

  await page.fill("#prompt", "list my notes");
  await page.click("#send");
  await expect
    .poll(() => page.textContent("#log"), { timeout: 10_000 })
    .toMatch(/← notes_list: [\s\S]*water the plants/);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);
