/**
 * The port a bridge scenario's worker serves its session on: `self` in a Web Worker, `parentPort` in a
 * Node worker thread (imported only there, so the same worker file bundles for the browser).
 */
import type { serveSession } from "../../src/bridge/index.ts";

/** `self` in a Web Worker; `parentPort` in a Node worker thread. */
export async function workerPort(): Promise<Parameters<typeof serveSession>[0]> {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  if (node === undefined) return globalThis as unknown as Parameters<typeof serveSession>[0];
  const { parentPort } = await import("node:worker_threads");
  return parentPort as unknown as Parameters<typeof serveSession>[0];
}
