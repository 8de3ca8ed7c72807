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
    name: "agent-stream",
    file: "wisp-agent-stream.ts",
    what: "an agent run streamed with `runAgentStream`, no tools",
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
    what: "the same agent, its tool defined with `zod/mini` (and its `toJSONSchema`)",
    ai: "ai-agent.ts",
  },
];

const KB = 1024;
/**
 * Our own ceilings, in gzip bytes, checked by test/package/bundle-size.test.ts (which also keeps each
 * program at most a quarter of Vercel's `ai`, 213.7 KB for both programs). Issue 13 added checks of
 * every option and error context (about 4.8 KB on the stream program, 6.5 KB on the agents). Issue 15
 * asked for 15 KB (`runAgentStream`, no tools) and 40 KB (one zod tool), figures from before approvals,
 * tool images, caching, structured output and compaction joined every agent program. With every check
 * and all failure classification stubbed out ({@link withoutChecks}) those programs still weigh 18.0 and
 * 45.3 KB (34.9 KB with zod/mini), so the goals cannot be met by splitting that code off.
 *
 * The policy since issue 41: sizes are reported (`npm run bench` writes them to bench/results.md, with
 * where the bytes go), and the test gates only what matters to users. The hard line is the promise
 * made to them: each program at most a quarter of its `ai` twin. The ceilings below are alarms for a
 * regression, not targets: each is a round number about 1 KB above the size measured when it was set,
 * so an ordinary change fits and a change that adds a kilobyte has to say why here. They used to sit
 * within 0.05 KB of the measured size, which made every change a budget negotiation. The history of
 * each program's size stays below.
 * @type {Record<string, number>}
 */
export const BUDGET = {
  // 16.9 KB when set (12.1 KB before the option checks); 15.6 KB once Wisp parsed SSE itself, 16.1 KB
  // with prompt caching (Anthropic's breakpoints, OpenAI's key, the option's check), 16.7 KB with
  // structured output's request fields (each API's JSON mode, Anthropic's closed schemas), 17.1 KB with
  // the providers' own compaction fields and Gemini's answer tool; 17.5 KB once the tool machinery loaded
  // on first need (the package's entry re-exports hook defaults the machinery also reads, so their small
  // module became a chunk of its own that every program imports); 17.6 KB once that module also listed and
  // named an event's hooks (for hooks whose code did not load); 17.75 KB once streamed text was kept in
  // flat blocks (streamed-text.ts, removed by issue 38: its gain was within the per-process spread); 18.4 KB once a 200 carrying a document (HTML,
  // one JSON answer) was told from a stream (a mislabelled stream still read), bodies that are not
  // streams were read to 64 KB at most under the abort and idle timer (before, a stalled error body
  // behind a fetch that ignores its signal hung the turn), a stream lost mid-answer was told from a
  // server never reached, and an error not retried for a too-long retry-after said so; 18.7 KB with the
  // providers' shortcut readers (quick-json.ts: one regular expression reads each provider's text and
  // argument deltas without JSON.parse, 1.1-1.7x faster decoding; 0.35 KB), 18.76 KB once the strings
  // they give were copies rather than slices that kept their network chunk. 18.6 KB after the house plan
  // (issue 34: option tables, checks only, no doc strings); 20.0 KB with issue 35's fixes: a user's
  // fetch wrapper's errors classified over their whole cause chain by name, code and wording, with
  // retryable from the code (about 1 KB), a fetch that returns no Response told apart, built-in parts
  // kept in their place and content that comes only in closing events (the message builder), ids
  // without crypto.randomUUID (the SSE `retry` field is read outside the parser, by MCP alone).
  // Issue 41: the tool machinery loaded eagerly took 0.43 KB off (its hook defaults no longer a chunk
  // of their own): 19.5 KB. Ceiling 21 KB (1.5 KB room).
  stream: 21 * KB,
  // Issue 15's goal is 15 KB; 22.3 KB when the program was added, 23.6 KB with approvals (issue 16:
  // the pause, its digest and HMAC, and resuming are part of every agent loop); 24.2 KB once sequential
  // tools held back the calls behind one that waits. Loading resume-run lazily was tried: esbuild's
  // extra shared chunks made every program about 1 KB larger. Wisp's own SSE parser took 1.2 KB off;
  // images in tool results put 0.4 KB back (23.4 KB), their checks and prompt caching 0.9 KB (24.3 KB),
  // structured output 0.9 KB more (25.2 KB; its parser and checks load only in runs that ask for it),
  // then the cache-miss watch, compaction's overlay and hook, and the review's fixes (26.3 KB), and the
  // providers' own compaction and Gemini's answer tool (26.6 KB). Tried again at 26.9 KB: loading the
  // tool calls, resuming and the approval seal on first need took 0.3 KB off this program but put 1.8 KB
  // on the stream program (esbuild gives every dynamic import its own partition of shared chunks, and a
  // shared chunk cannot be shaken per importer: every module the lazy code shares with the package's
  // entry becomes a chunk every program imports). Done so that it shares almost none (tool-answer.ts
  // split from tool-output.ts; resume-run stays eager and loads what it runs), and loaded as a run with
  // tools or hooks starts, beside the provider: 23.5 KB, and 0.3 KB more on the stream program; 23.9 KB
  // once a failed load failed each hook under its own policy and an abort stopped waiting for a load;
  // 23.6 KB with the answering of a resume's decisions in the machinery too; 24.3 KB with the stream
  // program's 0.75 KB (streamed text in blocks, answers that are not streams, clearer failure messages);
  // 24.7 KB with the providers' shortcut readers; 24.9 KB once a turn cut off at maxTokens ended the run
  // (its calls answered as not run) and sessionId, metadata and the integer options were checked as a
  // restore checks them; 24.6 KB after the house plan (issue 34), 25.9 KB with issue 35's fixes (the
  // stream program's 1.4 KB, above, less the tables' compact rows); 26.0 KB with issue 36's session
  // budgets and runAgent's onEvent observer (0.05 KB, once their messages were made short).
  // Issue 41: the tool machinery (run-tool-calls, run-hooks, approval-digest, tool-answer, resuming)
  // loaded eagerly, 3.5 KB more for this program (an agent with neither tools nor hooks) and 1.6 KB less
  // for every program with a tool, and no chunk that can fail to load mid-run: 29.5 KB. Ceiling 31 KB
  // (1.5 KB room).
  "agent-stream": 31 * KB,
  // zod's classic API alone is 21.6 KB of it; 48.2 KB when set, 46.5 KB once the state check no
  // longer used zod/mini (issue 16's pause/resume cycle), 45.8 KB with Wisp's own SSE parser, 46.6 KB
  // with image checks and prompt caching, 47.8 KB with structured output, 48.9 KB with compaction, 50.4
  // KB with the tool machinery as a chunk of its own (compressed apart from the rest: 1.1 KB more for a
  // program with tools, 3.5 KB less for one without), 50.7 KB with the review's fixes to a failed load,
  // 50.8 KB with resuming in the machinery, 51.6 KB with the stream program's 0.75 KB, 51.9 KB with
  // the providers' shortcut readers, 52.1 KB with the cut-off turn's end and the restore-like checks,
  // 52.0 KB after the house plan (issue 34), 53.4 KB with issue 35's fixes (a quarter of `ai`'s twin is
  // 53.45 KB: 53.65 KB went past it until the option tables' rows became bare checks and the SSE
  // `retry` field left the parser).
  // Issue 41: 51.8 KB with the tool machinery loaded eagerly (1.6 KB less), 1.6 KB under the quarter
  // of `ai` (53.4 KB) that the test holds as the hard line. Ceiling 53 KB (1.1 KB room).
  // Issue 40: 53.3 KB with questions, the permission policy and forks in every agent loop (the policy's
  // decisions and a resume's answers load on first need, importing only types; the policy's check, the
  // question seal and the session's policy code stay eager: loaded lazily they shared the entry's
  // modules and split them into chunks every program loads, 54.7 KB). Ceiling 53.4 KB, under the
  // quarter of `ai`.
  agent: 53.4 * KB,
  // zod/mini plus its toJSONSchema (a zod/mini schema cannot convert itself): 39.3 KB when set, 36.2
  // KB with Wisp's own state check, 35.5 KB with its own SSE parser, 36.3 KB with image checks and
  // prompt caching, 37.5 KB with structured output, 38.6 KB with compaction, 40.1 KB with the tool
  // machinery as a chunk of its own, 40.4 KB with the review's fixes to a failed load, 40.5 KB with
  // resuming in the machinery, 41.2 KB with the stream program's 0.75 KB, 41.6 KB with the providers'
  // shortcut readers, 41.8 KB with the cut-off turn's end and the restore-like checks, 41.5 KB after
  // the house plan (issue 34), 43.0 KB with issue 35's fixes.
  // Issue 41: 41.5 KB with the tool machinery loaded eagerly (1.6 KB less). Ceiling 43 KB (1.5 KB
  // room).
  "agent-zod-mini": 43 * KB,
};

/**
 * What MCP costs a program (issue 37): the same `runAgent` program without tools, with one MCP
 * server's tools (`connectMcp`, a bearer header), and with that server authorized by `mcpOAuth`.
 * Reported by `npm run bench`; test/package/bundle-size.test.ts checks that a program without MCP
 * carries none of it and one without OAuth none of that.
 */
export const MCP_PROGRAMS = [
  { name: "run", file: "wisp-run.ts", what: "`runAgent`, no tools" },
  { name: "mcp", file: "wisp-mcp.ts", what: "the same with one MCP server's tools (`connectMcp`)" },
  { name: "mcp-oauth", file: "wisp-mcp-oauth.ts", what: "the same, the server authorized with `mcpOAuth`" },
];

/** Whole entry points, for the record (not budgeted: a program keeps only what it imports). */
export const ENTRIES = [
  { name: "wisp-agent", file: "entry-wisp.ts" },
  { name: "wisp-agent/testing", file: "entry-wisp-testing.ts" },
  { name: "wisp-agent/bridge", file: "entry-wisp-bridge.ts" },
  { name: "wisp-agent/formats", file: "entry-wisp-formats.ts" },
  { name: "wisp-agent/mcp", file: "entry-wisp-mcp.ts" },
  { name: "wisp-agent/effect", file: "entry-wisp-effect.ts" },
];

/** The provider the measured programs talk to, loaded on first use. */
const ANTHROPIC = /dist\/src\/providers\/anthropic\/index\.js$/;

/**
 * The chunks a program downloads to run against Anthropic: its entry chunk and everything it imports
 * statically, plus the Anthropic provider chunk (loaded on first use) and what that imports. Chunks
 * reached only through a dynamic import the program never makes (the other providers, a validator
 * for options it does not pass) are not downloaded, so they are not counted.
 * @param {import("esbuild").Metafile} metafile
 * @param {string} entry the program's entry point (esbuild also marks dynamic-import targets as entries)
 * @returns {Set<string>}
 */
function loadedChunks(metafile, entry) {
  const outputs = metafile.outputs;
  const loaded = new Set();
  const visit = (path) => {
    if (loaded.has(path) || outputs[path] === undefined) return;
    loaded.add(path);
    for (const imported of outputs[path].imports)
      if (imported.kind === "import-statement") visit(imported.path);
  };
  for (const [path, output] of Object.entries(outputs)) {
    if (output.entryPoint === entry) visit(path);
    const inputs = Object.keys(output.inputs);
    if (inputs.some((input) => ANTHROPIC.test(input))) visit(path);
  }
  return loaded;
}

/**
 * Bundles one program (a path from the project root) with code splitting, as a browser app is, and
 * measures what it downloads to run against Anthropic (see {@link loadedChunks}). Each chunk is
 * gzipped on its own, as it is served.
 * @param {string} entry
 * @param {boolean} [everything] count every chunk (for whole entry points)
 * @param {import("esbuild").Plugin[]} [plugins] esbuild plugins (see {@link withoutChecks})
 * @returns {Promise<{ minified: number, gzip: number, inputs: string[], bytesOf: Map<string, number>, skipped: number }>}
 *   bytes; the files that contributed code to the chunks counted (the metafile also lists files parsed
 *   and then shaken out) and the minified bytes each contributed; and the gzip bytes of the chunks left out
 */
export async function measureBundle(entry, everything = false, plugins = []) {
  const result = await build({
    plugins,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    minify: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    metafile: true,
    outdir: "bundle",
    logLevel: "silent",
  });
  const loaded = loadedChunks(result.metafile, entry);
  const size = {
    minified: 0,
    gzip: 0,
    inputs: /** @type {string[]} */ ([]),
    bytesOf: new Map(),
    skipped: 0,
  };
  for (const file of result.outputFiles) {
    if (!file.path.endsWith(".js")) continue;
    const key = Object.keys(result.metafile.outputs).find((out) => file.path.endsWith(out)) ?? "";
    const inputs = Object.entries(result.metafile.outputs[key]?.inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path);
    const gzip = gzipSync(file.contents, { level: 9 }).length;
    if (!everything && !loaded.has(key)) {
      size.skipped += gzip;
      continue;
    }
    size.minified += file.contents.length;
    size.gzip += gzip;
    size.inputs.push(...inputs);
    for (const input of inputs)
      size.bytesOf.set(input, result.metafile.outputs[key]?.inputs[input]?.bytesInOutput ?? 0);
  }
  return size;
}
/**
 * The gzip bytes of one program bundled into a single file (no splitting): what a plain
 * `esbuild --bundle`, or a Worker upload, gets, dynamic imports included.
 * @param {string} entry
 * @returns {Promise<number>}
 */
export async function measureOneFile(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    outfile: "bundle.js",
    logLevel: "silent",
  });
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
}

/** What a program's code is for, by the files it comes from (the first pattern that matches). */
const CONCERNS = [
  [
    "option and input checks",
    /\/(config\/|agent\/check-|stream\/check-|schema\/format-issues|agent\/agent-option-table|stream\/(connection|turn)-options|compaction\/compaction-options)/,
  ],
  ["typed errors and their classification", /\/errors\//],
  ["the Anthropic provider: request, stream, prices", /\/(providers|usage)\//],
  ["streaming: SSE, the message builder, streamTurn", /\/(stream|http|message)\//],
  [
    "the agent loop: turns, tools, hooks, approvals, budgets, caching watch",
    /\/(agent|compaction|state|schema|output)\//,
  ],
];

/** The files of the option and input checks (the first of {@link CONCERNS}). */
const CHECKS = CONCERNS[0][1];
/** The files that classify a failure (an HTTP answer, a provider's error, a runtime's network error). */
const CLASSIFICATION = /\/errors\/(classify|network-failure|retry-delay|redact)\.js$/;

/**
 * An esbuild plugin that bundles every checking and classifying module ({@link CHECKS},
 * {@link CLASSIFICATION}) as a stub whose exports are empty functions: no option is checked and no
 * failure classified. Not a build anyone could ship; it measures the floor under issue 15's bundle
 * goals, what the rest of a program weighs if all that code cost nothing.
 * @type {import("esbuild").Plugin}
 */
export const withoutChecks = {
  name: "without-checks",
  setup(builder) {
    builder.onLoad({ filter: /\/dist\/src\/.*\.js$/ }, async ({ path }) => {
      if (!CHECKS.test(path) && !CLASSIFICATION.test(path)) return undefined;
      const names = Object.keys(await import(path));
      return { contents: names.map((name) => `export const ${name} = () => {};`).join("\n"), loader: "js" };
    });
  },
};

/**
 * A program's minified bytes by concern ({@link CONCERNS}), for the record of where a budget goes.
 * @param {{ bytesOf: Map<string, number>, minified: number, gzip: number }} size
 * @returns {{ concern: string, minified: number, gzipShare: number }[]} gzipShare: the concern's share of
 *   the minified bytes applied to the gzip total (gzip does not split by file; an estimate)
 */
export function byConcern(size) {
  const totals = new Map(CONCERNS.map(([concern]) => [concern, 0]));
  let other = 0;
  for (const [input, bytes] of size.bytesOf) {
    const found = CONCERNS.find(([, pattern]) => pattern.test(input));
    if (found === undefined) other += bytes;
    else totals.set(found[0], (totals.get(found[0]) ?? 0) + bytes);
  }
  const rows = [...totals].map(([concern, minified]) => ({ concern, minified }));
  rows.push({ concern: "other (the program itself, libraries)", minified: other });
  return rows.map((row) => ({ ...row, gzipShare: (row.minified / size.minified) * size.gzip }));
}

/** Kilobytes with one decimal. @param {number} bytes */
export const kb = (bytes) => (bytes / 1024).toFixed(1);

/** The bench section: every program beside its `ai` counterpart, and each whole entry point. */
export async function bundleSizeSection() {
  const measure = (file) => measureBundle(`bench/size/${file}`);
  const rows = [];
  let concerns = "";
  for (const program of PROGRAMS) {
    const [ours, floor, theirs, oneFile] = await Promise.all([
      measure(program.file),
      measureBundle(`bench/size/${program.file}`, false, [withoutChecks]),
      measure(program.ai),
      measureOneFile(`bench/size/${program.file}`),
    ]);
    rows.push(
      `| ${program.what} | ${kb(ours.minified)} | **${kb(ours.gzip)}** | ${kb(floor.gzip)} | ${kb(oneFile)} | ${kb(theirs.gzip)} | ${(theirs.gzip / ours.gzip).toFixed(1)}x |`,
    );
    if (program.name === "agent-stream")
      concerns = byConcern(ours)
        .map((row) => `| ${row.concern} | ${kb(row.minified)} | ${kb(row.gzipShare)} |`)
        .join("\n");
  }
  const mcpRows = [];
  let before;
  for (const program of MCP_PROGRAMS) {
    const size = await measure(program.file);
    const more = before === undefined ? "–" : `+${kb(size.gzip - before)}`;
    mcpRows.push(`| ${program.what} | ${kb(size.minified)} | ${kb(size.gzip)} | ${more} |`);
    before = size.gzip;
  }
  const entries = [];
  for (const entry of ENTRIES) {
    const size = await measureBundle(`bench/size/${entry.file}`, true);
    entries.push(`| \`${entry.name}\` | ${kb(size.minified)} | ${kb(size.gzip)} |`);
  }
  return `## Browser bundle size

esbuild, browser platform, ESM, minified, code splitting; each chunk gzipped (level 9) and summed over
the chunks the program loads to talk to Anthropic: its entry chunk and what that imports statically,
plus the Anthropic provider chunk (loaded on first use) and its imports. Chunks reached only through a
dynamic import the program never makes (the other providers, the \`messages\` validator) are left out,
as a browser never fetches them. Each program (bench/size/) imports the published build through the
package's exports; its twin is the same program written with Vercel's \`ai\` and \`@ai-sdk/anthropic\`.
\`test/package/bundle-size.test.ts\` fails above ${PROGRAMS.map((program) => `${kb(BUDGET[program.name] ?? 0)} KB (${program.name})`).join(", ")},
or above a quarter of the \`ai\` twin.

"one file" is the same program bundled into a single file without splitting (what a plain
\`esbuild --bundle\` or a Worker upload gets, every lazily loaded chunk included).

"no checks" is the floor under issue 15's goals (15 KB for the \`runAgentStream\` program, 40 KB for an
agent with one zod tool): the same program with every option check and all failure classification
replaced by empty stubs (\`withoutChecks\` in bench/bundle-size.mjs), as if a cheap check and lazily
loaded explanations cost nothing. It is not a build anyone could ship.

| program | min KB | gzip KB | no checks gzip KB | one file gzip KB | \`ai\` gzip KB | ai / wisp-agent |
|---|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}

Where the \`runAgentStream\` program's bytes go (issue 15's goal for it is 15 KB): minified bytes by the
files they come from, and that share of its gzip size (an estimate: gzip does not split by file).

| concern | min KB | ≈ gzip KB |
|---|---:|---:|
${concerns}

What MCP costs (bench/size/wisp-run.ts, wisp-mcp.ts, wisp-mcp-oauth.ts; each row adds to the one above):

| program | min KB | gzip KB | added gzip KB |
|---|---:|---:|---:|
${mcpRows.join("\n")}

Whole entry points (everything exported, every provider; a program keeps only what it reaches):

| entry point | min KB | gzip KB |
|---|---:|---:|
${entries.join("\n")}
`;
}
