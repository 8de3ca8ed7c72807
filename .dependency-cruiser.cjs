/**
 * The house plan of Wisp's source, enforced: dependency-cruiser reads every import (type-only and
 * dynamic `import()` included) of `src/`, `runtime/` and `worker/` and fails on any circle and on any
 * import against the layer order below. `npm test` runs it (test/architecture/layers.test.ts), and
 * docs/architecture.md shows the same table (a test keeps the two equal).
 *
 * A module may import its own layer (no circles) and any layer below it, never one above. The
 * subpath modules (`wisp-agent/bridge`, `/effect`, `/formats`, `/mcp`, `/testing`) sit side by side:
 * none imports another.
 */

/**
 * The layers, lowest first: a name, the files it holds (a path pattern), its one-line purpose, and its
 * entry files, whose module comment opens with that purpose (test/architecture/layers.test.ts).
 */
const LAYERS = [
  [
    "errors",
    "^src/errors/",
    "the SdkError family, failure classification, redaction, retry delays",
    ["src/errors/sdk-error.ts"],
  ],
  [
    "types",
    "^src/types[.]ts$",
    "the domain model: messages, parts, usage, stop reasons, turn events",
    ["src/types.ts"],
  ],
  ["usage", "^src/usage/", "usage arithmetic, the price table and cost", ["src/usage/usage.ts"]],
  [
    "http",
    "^src/http/",
    "fetch-level plumbing: the SSE parser, bounded body reads, retry policy, timers",
    ["src/http/read-sse.ts"],
  ],
  [
    "telemetry",
    "^src/telemetry/",
    "OpenTelemetry without importing it: the option, GenAI names, a turn's span, contexts",
    ["src/telemetry/telemetry-options.ts"],
  ],
  [
    "config",
    "^src/config/",
    "option tables and the checks derived from them (did you mean, shown values)",
    ["src/config/option-table.ts"],
  ],
  [
    "message",
    "^src/message/",
    "one message: the builder a stream drives, storable values, ids, images, text",
    ["src/message/message-builder.ts"],
  ],
  [
    "state",
    "^src/state/",
    "a stored conversation's shape, limits and tool-call pairing, checked on restore",
    ["src/state/state-shape.ts"],
  ],
  [
    "schema",
    "^src/schema/",
    "Standard Schema, a tool's JSON Schema, validation issues as one line",
    ["src/schema/standard-schema.ts"],
  ],
  [
    "output",
    "^src/output/",
    "structured output: the answer's schema and check, the incremental JSON parser",
    ["src/output/run-output.ts"],
  ],
  [
    "providers",
    "^src/providers/",
    "one folder per wire API: request, stream handler, stop reasons, usage",
    ["src/providers/provider.ts"],
  ],
  [
    "stream",
    "^src/stream/",
    "streamTurn: one model turn, its options, attempts, retries and events",
    ["src/stream/stream-turn.ts"],
  ],
  [
    "compaction",
    "^src/compaction/",
    "summaries that stand for older messages in requests (loaded on demand)",
    ["src/compaction/compactor.ts"],
  ],
  [
    "agent",
    "^src/agent/",
    "the loop: runAgent, tools, hooks, approvals, budgets, the Result type",
    ["src/agent/run-agent.ts"],
  ],
  [
    "session",
    "^src/session/",
    "createAgentSession and createSession: one conversation, export and restore",
    ["src/session/agent-session.ts"],
  ],
  [
    "modules",
    "^src/(bridge|effect|formats|mcp|testing)/",
    "the subpath entries: bridge, effect, formats, mcp, testing",
    [
      "src/bridge/index.ts",
      "src/effect/index.ts",
      "src/formats/index.ts",
      "src/mcp/index.ts",
      "src/testing/index.ts",
    ],
  ],
  ["index", "^src/index[.]ts$", "the package entry: public exports, listed by name", ["src/index.ts"]],
  [
    "runtime",
    "^runtime/",
    "the runtime-specific entries: wisp-agent/testing/node, wisp-agent/mcp/stdio",
    ["runtime/node/index.ts", "runtime/mcp-stdio/index.ts"],
  ],
  ["worker", "^worker/[^/]+$", "the demo Cloudflare Worker (not part of the package)", ["worker/index.ts"]],
  ["worker-tests", "^worker/(test|e2e)/", "the Worker's tests, in workerd and through wrangler", []],
];

/** A pattern that matches any file of the layers from `index` on up. */
const above = (index) =>
  LAYERS.slice(index + 1)
    .map(([, path]) => `(${path})`)
    .join("|");

const SUBPATHS = ["bridge", "effect", "formats", "mcp", "testing"];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A circle of imports (type-only ones included): no module of it can be read or loaded alone.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map(([name, path], index) => ({
      name: `layer-${name}`,
      comment: `${name} imports only its own layer and those below it (docs/architecture.md).`,
      severity: "error",
      from: { path },
      to: { path: above(index) },
    })),
    ...SUBPATHS.map((name) => ({
      name: `subpath-${name}`,
      comment: "The subpath modules stand side by side: none imports another.",
      severity: "error",
      from: { path: `^src/${name}/` },
      to: { path: `^src/(${SUBPATHS.filter((other) => other !== name).join("|")})/` },
    })),
    {
      name: "unplaced",
      comment: "Every source file belongs to a layer: a new folder gets its row in LAYERS first.",
      severity: "error",
      from: { path: "^(src|runtime|worker)/", pathNot: LAYERS.map(([, path]) => `(${path})`).join("|") },
      to: {},
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: `${__dirname}/worker/tsconfig.json` },
    // The demo Worker imports Wisp by its package name, mapped to src/ as in worker/tsconfig.json.
    webpackConfig: { fileName: `${__dirname}/test/architecture/resolve-aliases.cjs` },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|public)/" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs", ".d.ts"] },
  },
};

/** The layer table, for the test that keeps docs/architecture.md equal to it (not read by dependency-cruiser). */
Object.defineProperty(module.exports, "LAYERS", { value: LAYERS, enumerable: false });
