/**
 * Wisp as a user gets it: the tarball `npm pack` makes, installed with zod (and effect) into a fresh
 * project by the oldest Node `engines` admits (so npm picks the dependency versions that Node gets), then used
 * from that project in Node 20.19, Node 22, Deno and Bun, through `import` and `require`, and
 * type-checked in a DOM-only project with `skipLibCheck: false`. Last, the README and every guide in
 * docs/ from top to bottom: every runnable block, unedited, run in that project against the installed
 * package in Node, Deno and Bun (the snippet convention of test/docs/snippet-runner.ts: placeholder
 * keys, fetch answered by the scripted model).
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBlocks } from "../docs/code-blocks.ts";
import type { SnippetReport } from "../docs/snippet-runner.ts";
import { runExample } from "../examples/run-example.ts";
import { minimumNode } from "../support/minimum-node.ts";

const ROOT = resolve(".");
const BIN = join(ROOT, "node_modules/.bin");
const HERE = join(ROOT, "test/package/consumer");
let project: string;
let installLog: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "wisp-consumer-"));
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", project], {
    cwd: ROOT,
    encoding: "utf8",
  }).trim();
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  const zod = JSON.parse(readFileSync("node_modules/zod/package.json", "utf8")).version as string;
  // effect, Wisp's other optional peer, for the blocks of docs/effect.md.
  const effect = JSON.parse(readFileSync("node_modules/effect/package.json", "utf8")).version as string;
  const node20 = minimumNode();
  // npm runs on the oldest supported Node, as a user on Node 20 would install.
  const env = { ...process.env, PATH: `${dirname(node20)}${delimiter}${process.env.PATH}` };
  installLog = execFileSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      `./${tarball}`,
      `zod@${zod}`,
      `effect@${effect}`,
    ],
    { cwd: project, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  for (const file of readdirSync(HERE)) copyFileSync(join(HERE, file), join(project, file));
}, 120_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

function installed(name: string): string {
  return JSON.parse(readFileSync(join(project, "node_modules", name, "package.json"), "utf8")).version;
}

async function run(command: string, args: string[]): Promise<Record<string, unknown>> {
  const output = await runExample(command, args, 60_000, project);
  expect(output.stderr).toBe("");
  expect(output.code).toBe(0);
  return JSON.parse(output.stdout.trim().split("\n").at(-1) ?? "null");
}

const AGENT_OUTPUT = {
  ok: true,
  text: "2 + 3 is 5.",
  toolOutput: "5",
  refusedTag: "ConfigError",
  refusedIsSdkError: true,
};

describe("the packed package in a fresh project", () => {
  it("installs on Node 20.19 with no dependencies of its own", () => {
    expect(installLog).not.toMatch(/EBADENGINE/);
    expect(existsSync(join(project, "node_modules", "eventsource-parser"))).toBe(false);
    expect(installed("wisp-agent")).toBe(JSON.parse(readFileSync("package.json", "utf8")).version);
  });

  it("type-checks in a DOM-only project (lib ES2022 + DOM, types [], skipLibCheck false)", () => {
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        types: [],
        skipLibCheck: false,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
      },
      files: ["dom-only.ts"],
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    const check = () =>
      execFileSync(join(BIN, "tsc"), ["-p", "tsconfig.json"], {
        cwd: project,
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(check).not.toThrow();
  }, 60_000);

  it.each([
    ["node 20.19", () => minimumNode(), ["agent.mjs"]],
    ["node 22", () => process.execPath, ["agent.mjs"]],
    ["deno", () => join(BIN, "deno"), ["run", "--allow-read", "--allow-env", "agent.mjs"]],
    ["bun", () => join(BIN, "bun"), ["agent.mjs"]],
  ])("runs an agent with a zod tool through `import` in %s", async (_name, command, args) => {
    expect(await run(command(), args)).toEqual(AGENT_OUTPUT);
  });

  it.each([
    ["node 22", () => [process.execPath, "--experimental-strip-types", "--no-warnings"]],
    ["deno", () => [join(BIN, "deno"), "run", "-A", "--unstable-no-legacy-abort"]],
    ["bun", () => [join(BIN, "bun")]],
  ])(
    "runs every runnable block of the README and the guides, unedited, against the installed package in %s",
    async (_name, command) => {
      const markdown = [
        "README.md",
        ...readdirSync(join(ROOT, "docs"))
          .filter((name) => name.endsWith(".md"))
          .sort()
          .map((name) => `docs/${name}`),
      ];
      const blocks = readBlocks(
        ROOT,
        markdown.map((path) => join(ROOT, path)),
      ).filter((block) => block.runnable);
      // The README's quick start, and the guides' own: more than the README alone holds.
      expect(blocks[0]?.file).toBe("README.md");
      expect(blocks.filter((block) => block.file !== "README.md").length).toBeGreaterThanOrEqual(30);
      const files = blocks.map((block, index) => {
        const name = block.file.replace(/\.md$/, "").replace(/\W/g, "-");
        const file = join(
          project,
          `docs-${String(index).padStart(3, "0")}-${name}-line-${block.line}.${block.language === "ts" ? "ts" : "mjs"}`,
        );
        writeFileSync(file, block.code);
        return file;
      });
      const report = join(project, `docs-${_name.replace(/\W/g, "")}.json`);
      const [bin, ...flags] = command();
      const run = await runExample(
        bin as string,
        [...flags, join(ROOT, "test/docs/snippet-runner.ts"), report, ...files],
        120_000,
        project,
      );
      expect(run.code).toBe(0);
      const reports = JSON.parse(readFileSync(report, "utf8")) as SnippetReport[];
      const failures = reports
        .map((entry, index) => ({
          block: `${blocks[index]?.file}:${blocks[index]?.line}`,
          error: entry.error,
          stderr: entry.stderr,
        }))
        .filter((entry) => entry.error !== undefined || entry.stderr !== "");
      expect(failures).toEqual([]);
      expect(reports).toHaveLength(blocks.length);
      // The quick start ran its tool and got the model's answer: two requests.
      expect(reports[0]?.requests).toBe(2);
    },
    180_000,
  );

  it.each([
    ["node 20.19", () => minimumNode()],
    ["node 22", () => process.execPath],
  ])(
    "works through `require` in %s, and errors match across the builds and entry points, by instanceof too",
    async (_name, command) => {
      expect(await run(command(), ["require.cjs"])).toEqual({
        sameExports: true,
        exportCount: expect.any(Number),
        text: "hello from cjs",
        crossCopy: true,
        otherTag: false,
        subpathCopy: true,
      });
    },
  );
});
