/**
 * Starts the real demo Worker (wrangler's `unstable_startWorker`: workerd, local KV and Durable
 * Objects) on 127.0.0.1 at a free port, for end-to-end tests and the bench.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";

/** A running Worker: its URL, and `stop()` to dispose of it (and its local state). */
export interface RunningWorker {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a Worker with fresh local state: the demo (wrangler.toml) unless `config` names another;
 * `vars` override its variables.
 */
export async function startWorker(
  vars: Record<string, string> = {},
  config = "wrangler.toml",
): Promise<RunningWorker> {
  process.env.DO_NOT_TRACK = "1";
  const state = mkdtempSync(join(tmpdir(), "wisp-worker-"));
  const worker = await unstable_startWorker({
    config,
    bindings: Object.fromEntries(
      Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      watch: false,
      persist: state,
      logLevel: "error",
    },
  });
  await worker.ready;
  const url = (await worker.url).toString().replace(/\/$/, "");
  return {
    url,
    async stop() {
      await worker.dispose();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
