/**
 * `wisp-agent/mcp/stdio` in each real runtime — Node 22, Node 20.19, Deno and Bun — through the built package
 * (`npm run build` first): the stdio scenario (support/scenario.mjs) against the official SDK's stdio
 * server, every server it started gone when it ends; and a parent that exits without closing
 * (`process.exit()`, an uncaught error) leaves no orphan, even of a server that ignores SIGTERM and
 * the end of its stdin. A parent killed outright cannot act: its server sees its stdin end and exits.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runExample } from "../../examples/run-example.ts";
import { minimumNode } from "../../support/minimum-node.ts";
import { isRunning } from "./support/stdio-test-server.ts";

const BIN = "node_modules/.bin";
const SUPPORT = "test/mcp/stdio/support";
/** Deno needs to run programs, read the package, and read the environment (its `spawn` reads it). */
const RUNTIMES: Array<[name: string, command: string, flags: string[]]> = [
  ["node", process.execPath, []],
  ["node 20.19 (the oldest engines admits)", minimumNode(), []],
  ["deno", `${BIN}/deno`, ["run", "--allow-read", "--allow-run", "--allow-env"]],
  ["bun", `${BIN}/bun`, []],
];

const serverPid = (stdout: string): number => Number(/server pid (\d+)/.exec(stdout)?.[1]);

describe.each(RUNTIMES)("wisp-agent/mcp/stdio in %s", (_name, command, flags) => {
  it("passes the stdio scenario, and leaves no server running", async () => {
    const run = await runExample(command, [...flags, `${SUPPORT}/scenario.mjs`, process.execPath], 60_000);
    expect(run.stdout).not.toContain("FAIL");
    expect(run.stderr).toBe("");
    expect(run.stdout.match(/^ok {3}/gm)?.length).toBe(6);
    expect(run.code).toBe(0);
    const { pids } = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as { pids: number[] };
    expect(pids.length).toBe(5);
    for (const pid of pids) expect(isRunning(pid), `server ${pid}`).toBe(false);
  }, 60_000);

  it.each(["exit", "throw"])(
    "a parent that ends without closing (%s) leaves no orphan, even of a server that ignores SIGTERM",
    async (how) => {
      const run = await runExample(command, [
        ...flags,
        `${SUPPORT}/parent.mjs`,
        process.execPath,
        how,
        "--stubborn",
      ]);
      expect(run.code).toBe(how === "exit" ? 0 : 1);
      const pid = serverPid(run.stdout);
      expect(pid).toBeGreaterThan(0);
      await expect.poll(() => isRunning(pid), { timeout: 2_000 }).toBe(false);
    },
    30_000,
  );
});

it("a parent killed outright (SIGKILL) leaves no orphan: the server sees its stdin end and exits", async () => {
  const parent = spawn(process.execPath, [`${SUPPORT}/parent.mjs`, process.execPath, "wait"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  parent.stdout.on("data", (chunk) => {
    out += chunk;
  });
  try {
    await expect.poll(() => serverPid(out), { timeout: 10_000 }).toBeGreaterThan(0);
  } finally {
    parent.kill("SIGKILL");
  }
  const pid = serverPid(out);
  await expect.poll(() => isRunning(pid), { timeout: 3_000 }).toBe(false);
}, 20_000);
