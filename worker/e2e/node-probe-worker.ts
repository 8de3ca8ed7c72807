/**
 * The demo Worker with one more route, for worker/e2e/no-nodejs-compat.test.ts: `GET /__node-probe`
 * answers which Node APIs the runtime gives it (the `process` and `Buffer` globals, and whether a
 * `node:*` module can be imported). The test starts it with the demo's own wrangler.toml (its date and
 * flags) in place of worker/index.ts; every other request goes to the demo, unchanged.
 *
 * @module
 */

import demo from "../index.ts";

export { ClientLimiter, SessionRunner } from "../index.ts";

/** Node modules a Worker with `nodejs_compat` can import (and one without cannot). */
const NODE_MODULES = [
  "node:buffer",
  "node:crypto",
  "node:events",
  "node:stream",
  "node:util",
  "node:async_hooks",
];

/** What the probe answers. */
export interface NodeProbe {
  process: string;
  Buffer: string;
  /** Each of {@link NODE_MODULES}: whether `import()` gave it. */
  modules: Record<string, boolean>;
}

async function probe(): Promise<NodeProbe> {
  const modules: Record<string, boolean> = {};
  for (const name of NODE_MODULES) {
    try {
      // A name in a variable: the bundler leaves the import to the runtime, which has the module or not.
      await import(/* @vite-ignore */ name);
      modules[name] = true;
    } catch {
      modules[name] = false;
    }
  }
  const globals = globalThis as { process?: unknown; Buffer?: unknown };
  return { process: typeof globals.process, Buffer: typeof globals.Buffer, modules };
}

type DemoFetch = typeof demo.fetch;

export default {
  async fetch(
    request: Request,
    env: Parameters<DemoFetch>[1],
    context: Parameters<DemoFetch>[2],
  ): Promise<Response> {
    if (new URL(request.url).pathname === "/__node-probe") return Response.json(await probe());
    return demo.fetch(request, env, context);
  },
};
