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
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: { name: "worker", include: ["worker/test/**/*.test.ts"] },
      },
    ],
  },
});
