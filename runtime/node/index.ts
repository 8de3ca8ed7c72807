/**
 * Layer `runtime` (docs/architecture.md): the runtime-specific entries: wisp-agent/testing/node, wisp-agent/mcp/stdio.
 *
 * `wisp-agent/testing/node`: serve the scripted model (or any fetch-style handler) on loopback HTTP, for
 * tests and benchmarks in other processes and runtimes. Uses `node:http` (Node, Deno, Bun).
 *
 * @module wisp-agent/testing/node
 */

import type { ScriptedModel } from "../../src/testing/scripted-model.ts";
import { type LoopbackServer, type ServeOptions, serveHandler } from "./serve-handler.ts";

export type { LoopbackServer, ServeOptions } from "./serve-handler.ts";
export { serveHandler } from "./serve-handler.ts";

/**
 * Serves a scripted model on `http://127.0.0.1:PORT`. Point a provider's `baseURL` at `url`
 * (OpenAI-chat: `${url}/v1`).
 *
 * @example
 * ```ts
 * const model = createScriptedModel({ script });
 * const server = await serveScriptedModel(model);
 * streamTurn(request, { model: "anthropic/x", baseURL: server.url });
 * await server.close();
 * ```
 */
export function serveScriptedModel(model: ScriptedModel, options?: ServeOptions): Promise<LoopbackServer> {
  return serveHandler((request) => model.handle(request), options);
}
