/**
 * The published build, made by tsup in three passes:
 * - ES modules, one per source file (`dist/src/…`, `dist/runtime/…`), so a bundler keeps only the
 *   modules a program uses (`sideEffects: false`) and providers stay lazily loaded chunks;
 * - CommonJS, one file per entry point (`dist/cjs/`), so `require("wisp-agent")` works;
 * - declarations, one bundled file per entry point (`dist/types/`, `.d.ts` and `.d.cts`).
 */
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";

/** The package's entry points, by output name. */
const ENTRIES = {
  index: "src/index.ts",
  testing: "src/testing/index.ts",
  bridge: "src/bridge/index.ts",
  formats: "src/formats/index.ts",
  mcp: "src/mcp/index.ts",
  effect: "src/effect/index.ts",
  "testing-node": "runtime/node/index.ts",
  "mcp-stdio": "runtime/mcp-stdio/index.ts",
};

/**
 * Keeps every module its own file: relative imports stay imports (their `.ts` extension becomes
 * `.js`), and packages and `node:` built-ins stay external.
 */
const oneModulePerFile: Plugin = {
  name: "one-module-per-file",
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (args.path.startsWith(".")) return { path: args.path.replace(/\.ts$/, ".js"), external: true };
      return { path: args.path, external: true };
    });
  },
};

export default defineConfig([
  {
    entry: ["src/**/*.ts", "runtime/**/*.ts"],
    outDir: "dist",
    format: "esm",
    platform: "neutral",
    target: "es2022",
    bundle: true,
    splitting: false,
    sourcemap: true,
    esbuildPlugins: [oneModulePerFile],
  },
  {
    entry: ENTRIES,
    outDir: "dist/cjs",
    format: "cjs",
    platform: "neutral",
    target: "es2022",
    sourcemap: true,
    // Dependencies stay `require`s; the lazily loaded providers are inlined (one file per entry).
    external: ["zod", /^zod\//, "effect", /^effect\//, /^node:/],
  },
  {
    entry: ENTRIES,
    outDir: "dist/types",
    format: ["esm", "cjs"],
    // The sessions are `AsyncDisposable`: bringing TypeScript's disposable lib along lets a project
    // whose `lib` is only ES2022 and DOM type-check these files with `skipLibCheck: false`.
    dts: { only: true, banner: '/// <reference lib="esnext.disposable" />' },
  },
]);
