/**
 * The Worker's environment and entry module as `cloudflare:workers` types them (`import { env, exports }
 * from "cloudflare:workers"`, used by the route tests). Apart from env.ts, which everything imports, so
 * that env.ts imports nothing that imports it.
 *
 * @module
 */

import type { Env as WorkerEnv } from "./env.ts";

declare global {
  // For `import { env, exports } from "cloudflare:workers"` (used by the route tests).
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
    interface GlobalProps {
      mainModule: typeof import("./index.ts");
      durableNamespaces: "SessionRunner" | "ClientLimiter";
    }
  }
}
