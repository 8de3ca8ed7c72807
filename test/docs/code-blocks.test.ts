/**
 * Docs that run: every ```ts / ```js block in README.md, docs/*.md and worker/README.md is a module
 * that type-checks under the project's strict options (one TypeScript program for all), and every
 * block not marked `no-run` runs in Node against the scripted model (see snippet-runner.ts for the
 * world a snippet runs in). Both go against the sources, so no build is needed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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

/**
 * The task guides: each shows its task in at least one block that really runs. (The reference pages
 * beside them, such as architecture.md, need not.)
 */
const GUIDES = [
  "docs/getting-started.md",
  "docs/models.md",
  "docs/tools-and-hooks.md",
  "docs/sessions.md",
  "docs/approvals.md",
  "docs/questions.md",
  "docs/permissions.md",
  "docs/structured-output.md",
  "docs/errors.md",
  "docs/testing.md",
  "docs/telemetry.md",
];

/** The relative Markdown links of `markdown` (`docs/x.md#part` of `[x](docs/x.md#part)`), code left out. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? "")
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** The anchors GitHub gives the headings of `markdown`: `## Options: \`x()\`` → `options-x`. */
function anchors(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((match) => match[1] ?? "");
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-"),
    ),
  );
}

/**
 * The links of the Markdown file `file` (relative to the root) whose file does not exist, or whose
 * `#anchor` names no heading of the Markdown file it points to.
 */
function brokenLinks(file: string): string[] {
  const path = join(ROOT, file);
  return relativeLinks(readFileSync(path, "utf8")).filter((link) => {
    const [target = "", anchor] = link.split("#");
    const linked = target === "" ? path : join(dirname(path), target);
    if (!existsSync(linked)) return true;
    if (anchor === undefined || !linked.endsWith(".md")) return false;
    return !anchors(readFileSync(linked, "utf8")).has(anchor);
  });
}

/** The README, the landing page. */
const README = readFileSync(join(ROOT, "README.md"), "utf8");

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
  it("start in the README with the quick start, which runs", () => {
    const readme = blocks.filter((item) => item.file === "README.md");
    expect(readme[0]?.runnable).toBe(true);
    expect(readme[0]?.code).toContain("runAgent(");
  });

  it("show every task guide at work in at least one runnable block", () => {
    const runnable = new Map(GUIDES.map((guide) => [guide, 0]));
    for (const item of blocks)
      if (item.runnable && runnable.has(item.file))
        runnable.set(item.file, (runnable.get(item.file) ?? 0) + 1);
    expect([...runnable].filter(([, count]) => count === 0).map(([guide]) => guide)).toEqual([]);
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

describe("the README as a landing page", () => {
  it("stays short", () => {
    expect(README.split("\n").length).toBeLessThan(250);
  });

  it("links to files that exist, and to every guide in docs/", () => {
    expect(brokenLinks("README.md")).toEqual([]);
    const linked = relativeLinks(README).map((link) => link.replace(/#.*$/, ""));
    const guides = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md"));
    expect(guides.filter((name) => !linked.includes(`docs/${name}`))).toEqual([]);
  });

  it("states the failure rule, word for word as the errors guide does", () => {
    const rule =
      "Nothing Wisp exports rejects: every call you `await` that can fail resolves to a `Result` (`{ ok: true, value }` or `{ ok: false, error }`, the error an `SdkError`); only synchronous calls that check what you hand them (`defineTool`, `serveSession`, `parseSessionState`, `toClaudeCode`, `toPi` and the transcript writers) throw a `ConfigError`, at once, for input they can never use.";
    const oneLine = (text: string) => text.replace(/\*\*The failure rule\.\*\* /, "").replace(/\s+/g, " ");
    expect(oneLine(README)).toContain(rule);
    expect(oneLine(readFileSync(join(ROOT, "docs/errors.md"), "utf8"))).toContain(rule);
  });

  it("has guides whose relative links and their anchors resolve", () => {
    const broken = readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .flatMap((name) => brokenLinks(`docs/${name}`).map((link) => `docs/${name}: ${link}`));
    expect(broken).toEqual([]);
  });
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

  it("names headings as GitHub anchors them, and finds links outside code only", () => {
    expect([
      ...anchors("# Wisp\n## Options declared once: `sessionOptions()`\n### What's new, 2.0\n"),
    ]).toEqual(["wisp", "options-declared-once-sessionoptions", "whats-new-20"]);
    expect(
      relativeLinks("[a](docs/a.md#x) [b](https://b.dev)\n```md\n[c](docs/c.md)\n```\n[d](#d)\n"),
    ).toEqual(["docs/a.md#x", "#d"]);
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
