/**
 * The Wisp tool a connection gives for a server's tool, by its (Wisp) name, for tests that call a
 * tool directly.
 */
import type { Tool } from "../../../src/index.ts";
import type { McpConnection } from "../../../src/mcp/index.ts";
import type { JsonObject } from "../../../src/types.ts";

/** The connection's tool named `name`; throws, listing the names it has, when there is none. */
export function toolNamed(connection: McpConnection, name: string): Tool<JsonObject> {
  const tool = connection.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${connection.tools.map((t) => t.name)}`);
  return tool;
}
