import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "node", include: ["test/**/*.test.ts", "worker/e2e/**/*.test.ts"] } },
      {
        extends: true,
        // The demo Worker's routes, run inside workerd with real KV and Durable Objects (wrangler.toml).
        // Only this test pool asks for nodejs_compat (below: Vitest's runner inside workerd imports
        // node:inspector); wrangler.toml needs none, and worker/e2e/no-nodejs-compat.test.ts shows the
        // demo runs without it.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // A short grace period, so the tests see an unwatched run cancelled quickly.
            miniflare: {
              // The test pool only (Vitest's runner imports node:inspector, which the pool's own flags
              // do not cover at this compatibility date); the demo itself runs without it.
              compatibilityFlags: ["enable_request_signal", "nodejs_compat"],
              bindings: {
                RUN_GRACE_MS: "1000",
                CREATE_RATE_LIMIT: "100000/60",
                MCP_RATE_LIMIT: "100000/60",
                APPROVAL_SECRET: "the-worker-tests-approval-secret",
                // 8 Mi characters: the cap is reached in a test without 64 MiB bodies.
                SESSION_MAX_CHARS: String(8 * 1024 * 1024),
              },
            },
          }),
        ],
        test: { name: "worker", include: ["worker/test/**/*.test.ts"] },
        // The same aliases as wrangler.toml: the Worker imports Wisp by its package name.
        resolve: {
          alias: [
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
          ],
        },
      },
    ],
  },
});
