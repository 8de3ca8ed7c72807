/**
 * Runs an example program as a child process and collects what it printed. Every child is ended by
 * its own PID when the test is done with it or its time is up.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { expect } from "vitest";

/** What a finished example printed, and how it exited. */
export interface ExampleOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command args…` in `cwd` (default: the project root); resolves when it exits or after
 * `timeoutMs` (killed).
 */
export function runExample(
  command: string,
  args: string[],
  timeoutMs = 60_000,
  cwd?: string,
): Promise<ExampleOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, DO_NOT_TRACK: "1", NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running example and resolves with the child and the first URL it prints. */
export function startExample(command: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no URL printed within 20 s: ${out}`));
    }, 20_000);
    child.on("error", reject);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
  });
}

/** A scenario's report is whole and clean: `checks` lines `ok`, none failed, the closing line. */
export function expectAllPassed(report: string, checks: number): void {
  expect(report).not.toContain("FAIL");
  expect(report.match(/^ok {3}/gm)?.length).toBe(checks);
  expect(report).toContain(`passed: 0 of ${checks} checks failed`);
}
