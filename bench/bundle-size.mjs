/**
 * Browser bundle sizes: each program in bench/size is bundled by esbuild for the browser (ESM,
 * minified) and gzipped at level 9. Used by the size-budget test and by `npm run bench`.
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The programs, each beside its counterpart written with Vercel's `ai`. */
export const PROGRAMS = [
  {
    name: "stream",
    file: "wisp-stream.ts",
    what: "one streamed Anthropic turn, no tools",
    ai: "ai-stream.ts",
  },
  {
    name: "agent",
    file: "wisp-agent.ts",
    what: 'an agent with one zod tool (`import * as z from "zod"`)',
    ai: "ai-agent.ts",
  },
  {
    name: "agent-zod-mini",
    file: "wisp-agent-zod-mini.ts",
    what: "the same agent, its tool defined with `zod/mini`",
    ai: "ai-agent.ts",
  },
];

/** Whole entry points, for the record (not budgeted: a program keeps only what it imports). */
export const ENTRIES = [
  { name: "wisp", file: "entry-wisp.ts" },
  { name: "wisp/testing", file: "entry-wisp-testing.ts" },
];

/**
 * Bundles one program (a path from the project root) and measures it.
 * @param {string} entry
 * @returns {Promise<{ minified: number, gzip: number, inputs: string[] }>} bytes, and the files that
 *   contributed code to the bundle (the metafile also lists files parsed and then shaken out)
 */
export async function measureBundle(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    metafile: true,
    outfile: "bundle.js",
    logLevel: "silent",
  });
  const code = result.outputFiles.find((file) => file.path.endsWith(".js"))?.contents ?? new Uint8Array();
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint !== undefined);
  const inputs = Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs };
}

/** Kilobytes with one decimal. @param {number} bytes */
export const kb = (bytes) => (bytes / 1024).toFixed(1);

/** The bench section: every program beside its `ai` counterpart, and each whole entry point. */
export async function bundleSizeSection() {
  const measure = (file) => measureBundle(`bench/size/${file}`);
  const rows = [];
  for (const program of PROGRAMS) {
    const [ours, theirs] = await Promise.all([measure(program.file), measure(program.ai)]);
    rows.push(
      `| ${program.what} | ${kb(ours.minified)} | **${kb(ours.gzip)}** | ${kb(theirs.gzip)} | ${(theirs.gzip / ours.gzip).toFixed(1)}x |`,
    );
  }
  const entries = [];
  for (const entry of ENTRIES) {
    const size = await measure(entry.file);
    entries.push(`| \`${entry.name}\` | ${kb(size.minified)} | ${kb(size.gzip)} |`);
  }
  return `## Browser bundle size

esbuild, browser platform, ESM, minified; gzip level 9. Each program (bench/size/) imports the published
build through the package's exports; its twin is the same program written with Vercel's \`ai\` and
\`@ai-sdk/anthropic\`. \`test/package/bundle-size.test.ts\` fails above 15 KB (stream), 42 KB (agent),
27 KB (agent with zod/mini) or above a fifth of the \`ai\` twin.

| program | min KB | gzip KB | \`ai\` gzip KB | ai / wisp |
|---|---:|---:|---:|---:|
${rows.join("\n")}

Whole entry points (everything exported; a program keeps only what it imports):

| entry point | min KB | gzip KB |
|---|---:|---:|
${entries.join("\n")}
`;
}
