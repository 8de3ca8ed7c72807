/**
 * Runs the runnable code blocks in one Node child process (test/docs/snippet-runner.ts), from a
 * temporary directory whose `node_modules` maps `wisp-agent` (and its subpaths) to the sources and
 * `zod` to the project's copy — so, like the type check, it needs no build. The directory is removed
 * afterwards; the child is ended by its own PID if it outlives its time.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { blockName, type CodeBlock } from "./code-blocks.ts";
import type { SnippetReport } from "./snippet-runner.ts";
import { ENTRY_SOURCES } from "./type-check.ts";

/** What a block did when it ran. */
export interface BlockRun extends Omit<SnippetReport, "file"> {
  block: CodeBlock;
}

/** A `wisp-agent` package that re-exports the sources, for snippets run outside the project. */
function linkPackages(root: string, directory: string): void {
  const modules = join(directory, "node_modules");
  const wisp = join(modules, "wisp-agent");
  mkdirSync(wisp, { recursive: true });
  const exports: Record<string, string> = {};
  for (const [name, source] of Object.entries(ENTRY_SOURCES)) {
    const file = `${name.replaceAll("/", "-")}.js`;
    exports[name.replace(/^wisp-agent/, ".")] = `./${file}`;
    writeFileSync(
      join(wisp, file),
      `export * from ${JSON.stringify(pathToFileURL(join(root, source)).href)};\n`,
    );
  }
  writeFileSync(join(wisp, "package.json"), JSON.stringify({ name: "wisp-agent", type: "module", exports }));
  for (const dependency of ["zod", "effect"])
    symlinkSync(join(root, "node_modules", dependency), join(modules, dependency), "dir");
}

/** Runs `blocks` (in order, one process) and reports each; `timeLimitMs` bounds each block. */
export async function runBlocks(
  root: string,
  blocks: readonly CodeBlock[],
  timeLimitMs = 5_000,
): Promise<BlockRun[]> {
  const directory = mkdtempSync(join(tmpdir(), "wisp-docs-"));
  try {
    linkPackages(root, directory);
    writeFileSync(join(directory, "package.json"), JSON.stringify({ type: "module" }));
    const files = blocks.map((block, index) => {
      const name = `${String(index).padStart(2, "0")}-${blockName(block).replace(/[/:]/g, "_")}`;
      const file = join(directory, `${name}.${block.language === "ts" ? "ts" : "mjs"}`);
      writeFileSync(file, block.code);
      return file;
    });
    const report = join(directory, "report.json");
    const runner = join(root, "test/docs/snippet-runner.ts");
    const args = ["--experimental-strip-types", "--no-warnings", runner, report, ...files];
    await new Promise<void>((resolve, reject) => {
      const child = execFile(
        process.execPath,
        args,
        {
          cwd: directory,
          env: { ...process.env, WISP_SNIPPET_TIME_LIMIT_MS: String(timeLimitMs) },
          timeout: 60_000,
          killSignal: "SIGKILL",
        },
        (error, _stdout, stderr) =>
          error ? reject(new Error(`the snippet runner failed: ${error.message}\n${stderr}`)) : resolve(),
      );
      child.stdin?.end();
    });
    const reports = JSON.parse(readFileSync(report, "utf8")) as SnippetReport[];
    return reports.map(({ file: _, ...rest }, index) => ({ ...rest, block: blocks[index] as CodeBlock }));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
