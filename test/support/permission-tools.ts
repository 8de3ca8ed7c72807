/**
 * Tools for the permission policy's tests that record their calls: `read` (declared free of side
 * effects), `write` (class `edit`, asks for approval) and `shell` (asks, no class, side effects).
 */
import * as z from "zod";
import { defineTool } from "../../src/index.ts";

/** Fresh tools and the list of what they ran (`read a.txt`, `write b.txt`, `shell ls`). */
export function permissionTools() {
  const ran: string[] = [];
  const read = defineTool({
    name: "read",
    description: "Reads a file",
    input: z.object({ path: z.string() }),
    sideEffects: false,
    execute: ({ path }) => {
      ran.push(`read ${path}`);
      return `contents of ${path}`;
    },
  });
  const write = defineTool({
    name: "write",
    description: "Writes a file",
    input: z.object({ path: z.string() }),
    permissionClass: "edit",
    needsApproval: true,
    execute: ({ path }) => {
      ran.push(`write ${path}`);
      return `wrote ${path}`;
    },
  });
  const shell = defineTool({
    name: "shell",
    description: "Runs a command",
    inputSchema: { type: "object", properties: { command: { type: "string" } } },
    needsApproval: true,
    execute: ({ command }) => {
      ran.push(`shell ${String(command)}`);
      return "done";
    },
  });
  return { ran, read, write, shell };
}
