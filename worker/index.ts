/**
 * Layer `worker` (docs/architecture.md): the demo Cloudflare Worker (not part of the package).
 *
 * The Wisp demo Worker: the API (worker/app.ts), the page (worker/public, served as static assets),
 * and the Durable Object that runs each session's agent.
 *
 * @module
 */

import { createApp } from "./app.ts";

export { ClientLimiter } from "./client-limiter.ts";
export { SessionRunner } from "./session-runner.ts";

export default createApp();
