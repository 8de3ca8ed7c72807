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

/** Where a Worker keeps its local state and which port it takes, to start it again on the same. */
export interface WorkerPlace {
  /** The local state directory (KV, Durable Objects); the caller removes it. */
  persist: string;
  port: number;
}

/** What a test changes of the configuration, everything else being the config file's. */
export interface WorkerOverrides {
  /** Another entry module in place of the config's `main`. */
  entrypoint?: string;
  /** Compatibility flags in place of the config's. */
  compatibilityFlags?: string[];
}

/**
 * Starts a Worker: the demo (wrangler.toml) unless `config` names another; `vars` override its
 * variables, `overrides` its entry module or flags. With fresh local state (removed by `stop()`), or
 * with `place`'s state and port, so a test can stop the Worker and start it again on what it left
 * (every Durable Object recreated).
 */
export async function startWorker(
  vars: Record<string, string> = {},
  config = "wrangler.toml",
  place?: WorkerPlace,
  overrides: WorkerOverrides = {},
): Promise<RunningWorker> {
  process.env.DO_NOT_TRACK = "1";
  const state = place?.persist ?? mkdtempSync(join(tmpdir(), "wisp-worker-"));
  const worker = await unstable_startWorker({
    config,
    ...overrides,
    bindings: Object.fromEntries(
      Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: place?.port ?? 0 },
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
      if (place === undefined) rmSync(state, { recursive: true, force: true });
    },
  };
}
