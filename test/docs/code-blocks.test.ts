/**
 * Docs that run: every ```ts / ```js block in README.md, docs/*.md and worker/README.md is a module
 * that type-checks under the project's strict options (one TypeScript program for all), and every
 * block not marked `no-run` runs in Node against the scripted model (see snippet-runner.ts for the
 * world a snippet runs in). Both go against the sources, so no build is needed.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { blockName, type CodeBlock, extractBlocks, readBlocks } from "./code-blocks.ts";
import { type BlockRun, runBlocks } from "./run-blocks.ts";
import { typeCheckBlocks } from "./type-check.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const MARKDOWN = [
  "README.md",
  "worker/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
].map((path) => join(ROOT, path));

const blocks = readBlocks(ROOT, MARKDOWN);

/** What went wrong with a run, or undefined when it ran cleanly. */
function problemOf(run: BlockRun): string | undefined {
  if (run.error !== undefined) return `${blockName(run.block)} threw: ${run.error}`;
  if (run.stderr !== "") return `${blockName(run.block)} wrote to stderr: ${run.stderr}`;
  return undefined;
}

/** A synthetic block, as if it were in README.md at `line`. */
function block(code: string, line = 1, runnable = true): CodeBlock {
  return { file: "README.md", line, language: "ts", runnable, code };
}

describe("the documentation's code blocks", () => {
  it("are found in the README and the docs, most of them runnable", () => {
    const readme = blocks.filter((item) => item.file === "README.md");
    expect(readme.length).toBeGreaterThanOrEqual(8);
    expect(readme.filter((item) => item.runnable).length).toBeGreaterThanOrEqual(6);
  });

  it("all type-check as modules under the project's strict options", () => {
    expect(typeCheckBlocks(ROOT, blocks)).toEqual([]);
  }, 60_000);

  it("all that are runnable run to their end against the scripted model, quietly and in time", async () => {
    const runs = await runBlocks(
      ROOT,
      blocks.filter((item) => item.runnable),
    );
    expect(runs.map(problemOf).filter((problem) => problem !== undefined)).toEqual([]);
    // The quick start (README's first runnable block) really ran its tool and got the answer.
    const quickStart = runs[0];
    expect(quickStart?.requests).toBe(2);
    expect(quickStart?.stdout).toContain("A scripted answer.");
  }, 60_000);
});

describe("the harness", () => {
  it("extracts ts and js blocks with their line and no-run flag, and skips other languages", () => {
    const markdown = [
      "# Title",
      "```sh",
      "npm install wisp-agent zod",
      "```",
      "```ts",
      'console.log("a");',
      "```",
      "- a list item:",
      "  ```js no-run",
      '  console.log("b");',
      "  ```",
      "```html",
      "<p>hi</p>",
      "```",
    ].join("\n");
    expect(extractBlocks(markdown, "doc.md")).toEqual([
      { file: "doc.md", line: 5, language: "ts", runnable: true, code: 'console.log("a");\n' },
      { file: "doc.md", line: 9, language: "js", runnable: false, code: 'console.log("b");\n' },
    ]);
  });

  it("refuses an unknown flag and an unclosed fence, so a check cannot be switched off by a typo", () => {
    expect(() => extractBlocks("```ts no_run\nx\n```\n", "doc.md")).toThrow(
      'unknown code block flag "no_run"',
    );
    expect(() => extractBlocks("```ts\nx\n", "doc.md")).toThrow("doc.md:1: the code fence is never closed");
  });

  it("reports a type error at its line in the Markdown file", () => {
    const errors = typeCheckBlocks(ROOT, [
      block('import { runAgent } from "wisp-agent";\nvoid runAgent;\nrender("hi");\n', 40),
      block("const ok: string = 1;\n", 60, false),
    ]);
    expect(errors).toEqual([
      "README.md:43: TS2304 Cannot find name 'render'.",
      "README.md:61: TS2322 Type 'number' is not assignable to type 'string'.",
    ]);
  }, 60_000);

  it("runs a snippet against the scripted model, which calls the offered tool with schema-shaped arguments", async () => {
    const [run] = await runBlocks(ROOT, [
      block(
        [
          'import { defineTool, runAgent } from "wisp-agent";',
          'import { z } from "zod";',
          "const add = defineTool({",
          '  name: "add", description: "Adds", input: z.object({ a: z.number(), b: z.number() }),',
          "  execute: ({ a, b }) => a + b,",
          "});",
          "const result = await runAgent({",
          '  model: "anthropic/claude-sonnet-5-5", apiKey: process.env.ANTHROPIC_API_KEY ?? "",',
          '  prompt: "6 + 7?", tools: [add],',
          "});",
          "if (result.ok) console.log(result.value.toolCalls[0]?.result.output, result.value.text);",
        ].join("\n"),
      ),
    ]);
    expect(run?.error).toBeUndefined();
    expect(run?.stdout).toBe("13 A scripted answer.\n");
    expect(run?.requests).toBe(2);
  }, 60_000);

  it("fails a snippet that throws, writes to stderr or outlives its time limit", async () => {
    const runs = await runBlocks(
      ROOT,
      [
        block('throw new Error("broken snippet");'),
        block('console.error("something went wrong");'),
        block("await new Promise((resolve) => setTimeout(resolve, 10_000));"),
        block('console.log("fine");'),
      ],
      500,
    );
    const problems = runs.map(problemOf);
    expect(problems[0]).toContain("broken snippet");
    expect(problems[1]).toBe("README.md:1 wrote to stderr: something went wrong\n");
    expect(problems[2]).toContain("did not finish within 500 ms");
    expect(problems[3]).toBeUndefined();
    expect(runs[3]?.stdout).toBe("fine\n");
  }, 60_000);
});
