/**
 * Tools whose implementation is chosen per run. A session keeps its tools for its life, but the MCP
 * tools of a run come from connections made for that run (worker/mcp-tools.ts). So the session the
 * runner keeps between runs gets stand-ins, each calling the tool of the same name of the run in
 * flight; a run whose servers offer other tools (another name, description or schema) needs a new
 * session, which {@link toolsKey} tells.
 *
 * @module
 */

import type { JsonObject, Tool } from "wisp-agent";

/** Stand-ins for `tools`, and how to point them at a run's tools. */
export interface LateBoundTools {
  tools: Tool<JsonObject>[];
  /** Makes the stand-ins call these tools (matched by name) until the next bind. */
  bind(tools: readonly Tool<JsonObject>[]): void;
}

/** What the model sees of `tools`: equal keys, interchangeable tool lists. */
export function toolsKey(tools: readonly Tool<JsonObject>[]): string {
  return JSON.stringify(
    tools.map((tool) => [
      tool.name,
      tool.description,
      tool.inputSchema,
      tool.timeoutMs ?? null,
      typeof tool.needsApproval === "function" ? "check" : (tool.needsApproval ?? false),
    ]),
  );
}

/** Stand-ins for `tools`, bound to them until {@link LateBoundTools.bind} binds others. */
export function lateBoundTools(tools: readonly Tool<JsonObject>[]): LateBoundTools {
  let current = new Map(tools.map((tool) => [tool.name, tool]));
  const now = (name: string): Tool<JsonObject> => {
    const tool = current.get(name);
    if (tool === undefined) throw new Error(`The tool ${name} is not connected in this run`);
    return tool;
  };
  const standIns = tools.map((tool): Tool<JsonObject> => {
    const standIn: {
      -readonly [K in keyof Tool<JsonObject>]: Tool<JsonObject>[K];
    } = {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      execute: (args, context) => now(tool.name).execute(args, context),
    };
    if (tool.timeoutMs !== undefined) standIn.timeoutMs = tool.timeoutMs;
    if (typeof tool.needsApproval === "function") {
      standIn.needsApproval = (args, context) => {
        const check = now(tool.name).needsApproval;
        return typeof check === "function" ? check(args, context) : (check ?? false);
      };
    } else if (tool.needsApproval !== undefined) standIn.needsApproval = tool.needsApproval;
    if (tool.parseArgs !== undefined) {
      standIn.parseArgs = (args) => {
        const bound = now(tool.name);
        return bound.parseArgs === undefined
          ? Promise.resolve({ ok: true as const, args })
          : bound.parseArgs(args);
      };
    }
    return standIn;
  });
  return {
    tools: standIns,
    bind(next) {
      current = new Map(next.map((tool) => [tool.name, tool]));
    },
  };
}
