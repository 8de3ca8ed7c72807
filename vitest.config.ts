import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";

/** The same aliases as wrangler.toml: the Worker imports Wisp by its package name. */
const WISP_ALIASES = [
  {
    find: /^wisp-agent\/testing$/,
    replacement: fileURLToPath(new URL("./src/testing/index.ts", import.meta.url)),
  },
  {
    find: /^wisp-agent\/mcp$/,
    replacement: fileURLToPath(new URL("./src/mcp/index.ts", import.meta.url)),
  },
  {
    find: /^wisp-agent\/formats$/,
    replacement: fileURLToPath(new URL("./src/formats/index.ts", import.meta.url)),
  },
  { find: /^wisp-agent$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
];

/**
 * The Worker tests that need a run to take time: they act on it while it streams (cancel it, drop
 * and reattach, wait out the grace period).
 */
const PACED = ["worker/test/runs.test.ts", "worker/test/resume.test.ts", "worker/test/*-paced-edges.test.ts"];

/**
 * A project of the demo Worker's route tests, run inside workerd with real KV and Durable Objects
 * (wrangler.toml). `chunkDelayMs` sets the demo model's pace (`DEMO_CHUNK_DELAY_MS`; its default,
 * 35 ms a word, when unset).
 */
function workerProject(
  name: string,
  files: { include: string[]; exclude?: string[]; chunkDelayMs?: string },
) {
  return {
    extends: true as const,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // The test pool only (Vitest's runner inside workerd imports node:inspector, which the
          // pool's own flags do not cover at this compatibility date); wrangler.toml needs none, and
          // worker/e2e/no-nodejs-compat.test.ts shows the demo runs without it.
          compatibilityFlags: ["enable_request_signal", "nodejs_compat"],
          bindings: {
            // A short grace period, so the tests see an unwatched run cancelled quickly.
            RUN_GRACE_MS: "1000",
            CREATE_RATE_LIMIT: "100000/60",
            MCP_RATE_LIMIT: "100000/60",
            APPROVAL_SECRET: "the-worker-tests-approval-secret",
            // 8 Mi characters: the cap is reached in a test without 64 MiB bodies.
            SESSION_MAX_CHARS: String(8 * 1024 * 1024),
            ...(files.chunkDelayMs === undefined ? {} : { DEMO_CHUNK_DELAY_MS: files.chunkDelayMs }),
          },
        },
      }),
    ],
    test: { name, include: files.include, exclude: [...configDefaults.exclude, ...(files.exclude ?? [])] },
    resolve: { alias: WISP_ALIASES },
  };
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "node", include: ["test/**/*.test.ts", "worker/e2e/**/*.test.ts"] } },
      // The demo model answers at once in "worker"; the tests that act on a run while it streams run
      // in "worker-paced", at the demo's own pace. Streaming at that pace in every test cost about
      // three quarters of the Worker tests' time (stop 43: 222 s of test time, 60 s without the pace).
      workerProject("worker", { include: ["worker/test/**/*.test.ts"], exclude: PACED, chunkDelayMs: "0" }),
      workerProject("worker-paced", { include: PACED }),
    ],
  },
});
