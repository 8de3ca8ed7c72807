/**
 * Fenced code blocks read out of Markdown, for the docs test. A block in ```ts / ```typescript /
 * ```js / ```javascript is a module that is type-checked, and run unless its info string carries
 * `no-run` (```ts no-run). Any other language (sh, html, a bare fence) is prose, not checked.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";

/** One checked code block. */
export interface CodeBlock {
  /** The Markdown file, relative to the project root (`README.md`, `docs/architecture.md`). */
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  language: "ts" | "js";
  /** Whether the runner runs it (no `no-run` flag). */
  runnable: boolean;
  code: string;
}

const LANGUAGES: Record<string, CodeBlock["language"]> = {
  ts: "ts",
  typescript: "ts",
  js: "js",
  javascript: "js",
};

/** The flags an info string may carry after a checked language. */
const FLAGS = new Set(["no-run"]);

const OPENING = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$/;

/** A block's name in messages: `README.md:42`. */
export function blockName(block: Pick<CodeBlock, "file" | "line">): string {
  return `${block.file}:${block.line}`;
}

/**
 * The checked code blocks of one Markdown text, in order. Throws on an unclosed fence or an unknown
 * flag, so a typo (`no_run`) cannot quietly turn a check off.
 */
export function extractBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = OPENING.exec(lines[index] ?? "");
    if (opening === null) continue;
    const [, indent = "", fence = "", info = "", rest = ""] = opening;
    const closing = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] ?? "")) {
      const text = lines[end] ?? "";
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
      end++;
    }
    if (end >= lines.length) throw new Error(`${file}:${index + 1}: the code fence is never closed`);
    const language = LANGUAGES[info.toLowerCase()];
    if (language !== undefined) {
      const flags = rest.trim() === "" ? [] : rest.trim().split(/\s+/);
      const unknown = flags.find((flag) => !FLAGS.has(flag));
      if (unknown !== undefined) {
        throw new Error(`${file}:${index + 1}: unknown code block flag "${unknown}" (known: ${[...FLAGS]})`);
      }
      blocks.push({
        file,
        line: index + 1,
        language,
        runnable: !flags.includes("no-run"),
        code: `${body.join("\n")}\n`,
      });
    }
    index = end;
  }
  return blocks;
}

/** The checked code blocks of Markdown files, read from disk (paths named relative to `root`). */
export function readBlocks(root: string, paths: readonly string[]): CodeBlock[] {
  return paths.flatMap((path) => extractBlocks(readFileSync(path, "utf8"), relative(root, path)));
}
