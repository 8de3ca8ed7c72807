/**
 * No orphans: every server process still running when this process exits is killed (SIGKILL) from
 * one `exit` listener, installed while any runs. Node, Deno and Bun all emit `exit` on `process`,
 * for a natural end and for `process.exit()`. A parent killed by a signal it does not handle emits
 * nothing; its servers then see their stdin end, which the MCP stdio transport tells them to take as
 * the end of the session.
 *
 * @module
 */

import type { ChildProcess } from "node:child_process";
import process from "node:process";

const running = new Set<ChildProcess>();

function killAll(): void {
  for (const child of running) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Kills `child` if this process exits first; the function returned forgets it (call it once it exited). */
export function killOnExit(child: ChildProcess): () => void {
  if (running.size === 0) process.on("exit", killAll);
  running.add(child);
  return () => {
    if (!running.delete(child)) return;
    if (running.size === 0) process.off("exit", killAll);
  };
}
