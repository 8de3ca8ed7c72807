/**
 * One MCP server as a child process (`node:child_process`, which Node, Deno and Bun provide): started
 * without a shell, its stdout cut into lines, its stderr read into a bounded tail (or passed on, or
 * dropped), its end reported once, and a stop that asks before it forces: stdin closed, then SIGTERM
 * after a grace period, then SIGKILL, as the official SDK does. It is killed if this process exits
 * first (exit-hook.ts).
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { killOnExit } from "./exit-hook.ts";
import { LineSplitter, type LineTooLong } from "./line-splitter.ts";
import type { McpStdioStderr } from "./mcp-stdio-options.ts";
import { StderrTail } from "./stderr-tail.ts";
import type { ProcessExit } from "./stdio-failures.ts";

/** The longest line of stdout taken (one message): as long as Streamable HTTP's longest answer. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** How long a server has to exit after its stdin closed, and then after SIGTERM, before the next step. */
const STOP_GRACE_MS = 2_000;
/** How long after its exit a server's stdout and stderr may stay open (a child of its own holding them). */
const DRAIN_MS = 100;

/** The program to start and where its stderr goes. */
export interface ServerCommand {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string | undefined;
  stderr: McpStdioStderr;
}

/** What the process says: each line of stdout, a line past the bound, and its end (once). */
export interface ServerEvents {
  onLine(line: string): void;
  onTooLong(error: LineTooLong): void;
  onExit(exit: ProcessExit): void;
}

const exitedWithin = (exited: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([exited.then(() => true), waited]).finally(() => clearTimeout(timer));
};

/** A started server process. */
export class ServerProcess {
  readonly #child: ChildProcess;
  readonly #tail: StderrTail;
  readonly #exited: Promise<ProcessExit>;
  #exit: ProcessExit | undefined;
  #stopping: Promise<void> | undefined;

  private constructor(child: ChildProcess, tail: StderrTail, events: ServerEvents) {
    this.#child = child;
    this.#tail = tail;
    const forget = killOnExit(child);
    const lines = new LineSplitter(MAX_LINE_CHARS);
    child.stdin?.on("error", () => {}); // EPIPE from a server that is gone: its exit says what happened
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      let read: string[];
      try {
        read = lines.push(chunk);
      } catch (error) {
        events.onTooLong(error as LineTooLong);
        return;
      }
      for (const line of read) events.onLine(line);
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => tail.push(chunk));
    this.#exited = new Promise((resolve) => {
      let ended = false;
      const end = (): void => {
        if (ended || this.#exit === undefined) return;
        ended = true;
        forget();
        tail.end();
        child.stdout?.destroy();
        child.stderr?.destroy();
        events.onExit(this.#exit);
        resolve(this.#exit);
      };
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        forget();
        setTimeout(end, DRAIN_MS); // the rest of stdout and stderr, read before the end is told
      });
      child.once("close", end);
    });
  }

  /**
   * Starts `command`; resolves once it runs, rejects with what the runtime threw or reported when it
   * cannot be started (`ENOENT`, `EACCES`, …).
   */
  static start(command: ServerCommand, events: ServerEvents): Promise<ServerProcess> {
    return new Promise((resolve, reject) => {
      const stderr = typeof command.stderr === "function" ? "pipe" : command.stderr;
      const tail = new StderrTail(typeof command.stderr === "function" ? command.stderr : undefined);
      let child: ChildProcess;
      try {
        child = spawn(command.command, [...command.args], {
          env: command.env,
          stdio: ["pipe", "pipe", stderr],
          shell: false,
          windowsHide: true,
          ...(command.cwd === undefined ? {} : { cwd: command.cwd }),
        });
      } catch (error) {
        reject(error);
        return;
      }
      const onError = (error: unknown): void => reject(error);
      child.once("error", onError);
      child.once("spawn", () => {
        child.off("error", onError);
        child.on("error", () => {}); // a failed kill of a process already gone
        resolve(new ServerProcess(child, tail, events));
      });
    });
  }

  /** The process id, for tests and logs. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** How the process ended, once it did. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Resolves once the process ended (and its output was read). */
  get exited(): Promise<ProcessExit> {
    return this.#exited;
  }

  /** The last lines of stderr, bounded (none when stderr is not piped). */
  stderrLines(): string[] {
    return this.#tail.lines();
  }

  /**
   * Writes `text` to stdin; resolves once it was handed to the system, rejects if it cannot be. Never
   * resolves while the pipe is full (a server that stopped reading): race it against a deadline.
   */
  write(text: string): Promise<void> {
    const stdin = this.#child.stdin;
    if (stdin === null || !stdin.writable) return Promise.reject(new Error("The server's stdin is closed"));
    return new Promise((resolve, reject) => {
      stdin.write(text, (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Drops what is still waiting to be written and closes stdin at once: for a line that cannot be
   * finished, whose rest must not reach the server later. Pending writes reject.
   */
  dropInput(): void {
    this.#child.stdin?.destroy();
  }

  /** Ends the process: stdin closed, then SIGTERM, then SIGKILL, each after {@link STOP_GRACE_MS}. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    if (this.#exit !== undefined) return;
    this.#child.stdin?.end();
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (await exitedWithin(this.#exited, STOP_GRACE_MS)) return;
      this.kill(signal);
    }
    await exitedWithin(this.#exited, STOP_GRACE_MS);
  }

  /** Sends `signal` (default SIGKILL) to the process, if it still runs. */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    if (this.#exit !== undefined) return;
    try {
      this.#child.kill(signal);
    } catch {
      // gone already
    }
  }
}
