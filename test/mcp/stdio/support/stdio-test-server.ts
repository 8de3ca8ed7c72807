/**
 * How the tests start the stdio test server (stdio-server.mjs) and check that a process is gone.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ConnectMcpStdioOptions } from "../../../../runtime/mcp-stdio/index.ts";

/** The test server's script. */
export const SERVER_SCRIPT = fileURLToPath(new URL("stdio-server.mjs", import.meta.url));

/** Options that start the test server with this Node, with `flags` and any other options. */
export function testServer(
  flags: string[] = [],
  options: Partial<ConnectMcpStdioOptions> = {},
): ConnectMcpStdioOptions {
  return { command: process.execPath, args: [SERVER_SCRIPT, ...flags], prefix: "stdio_", ...options };
}

/**
 * True while a process with this id runs. A zombie (dead, not reaped: an orphan whose new parent, PID 1
 * of a container, does not reap) counts as gone.
 */
export function isRunning(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return false;
    }
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}
