/**
 * The demo runs without `nodejs_compat`. wrangler.toml asks only for `enable_request_signal`, on a
 * compatibility date before 2026-08-04 (from that date workerd turns Node compatibility on by
 * default, and only `no_nodejs_compat` with `no_nodejs_compat_v2` turns it off).
 * The real Worker (workerd via wrangler, started on that file with a probe route added, see
 * node-probe-worker.ts) has no Node API: no `process`, no `Buffer`, no `node:*` module; the same probe
 * on the same Worker started with `nodejs_compat` finds them, so it can tell. And there the parts that
 * might have needed one work: the official MCP SDK's server at `/mcp` (McpServer, its web-standard
 * transport, zod), Hono's routes and middleware, and a session whose agent (in the Durable Object)
 * calls that server's tools through `connectMcp`.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { connectMcp } from "../../src/mcp/index.ts";
import { toolContext } from "../../test/support/tool-context.ts";
import { chatTurn } from "./chat-turn.ts";
import type { NodeProbe } from "./node-probe-worker.ts";
import { type RunningWorker, startWorker } from "./start-worker.ts";

const PROBE = "worker/e2e/node-probe-worker.ts";

async function probeOf(worker: RunningWorker): Promise<NodeProbe> {
  const response = await fetch(`${worker.url}/__node-probe`);
  expect(response.status).toBe(200);
  return (await response.json()) as NodeProbe;
}

it("wrangler.toml asks for enable_request_signal and no Node compatibility, on a date before it is the default", () => {
  const { compatibility_date: date, compatibility_flags: flags } = unstable_readConfig({
    config: "wrangler.toml",
  });
  expect(flags).toContain("enable_request_signal");
  expect(flags).not.toContain("nodejs_compat");
  expect(flags).not.toContain("nodejs_compat_v2");
  // From 2026-08-04 both are on by default, and only both opt-outs turn them off.
  const optedOut = flags.includes("no_nodejs_compat") && flags.includes("no_nodejs_compat_v2");
  expect((date ?? "") < "2026-08-04" || optedOut).toBe(true);
});

describe("the demo Worker as wrangler.toml configures it", () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker({}, "wrangler.toml", undefined, { entrypoint: PROBE });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
  });

  it("has no Node API: no process, no Buffer, no node:* module", async () => {
    const probe = await probeOf(worker);
    expect(probe.process).toBe("undefined");
    expect(probe.Buffer).toBe("undefined");
    expect(Object.values(probe.modules)).not.toContain(true);
    expect(Object.keys(probe.modules).length).toBeGreaterThan(0);
  });

  it("serves /mcp with the official MCP SDK's server: connectMcp lists, adds and reads notes", async () => {
    const connected = await connectMcp({ url: `${worker.url}/mcp`, prefix: "notes_", listen: false });
    if (!connected.ok) throw connected.error;
    const mcp = connected.value;
    const tool = (name: string) => {
      const found = mcp.tools.find((candidate) => candidate.name === name);
      if (found === undefined) throw new Error(`no ${name}`);
      return found;
    };
    expect(mcp.tools.map((candidate) => candidate.name).sort()).toEqual([
      "notes_add",
      "notes_delete",
      "notes_list",
      "notes_read",
    ]);
    const saved = String(
      await tool("notes_add").execute({ title: "No compat", text: "web only" }, toolContext()),
    );
    const id = /^Saved note (\w+): No compat$/.exec(saved)?.[1] ?? "";
    expect(id).not.toBe("");
    expect(String(await tool("notes_read").execute({ id }, toolContext()))).toContain("web only");
    await mcp.close();
  });

  it("runs a session whose agent calls the notes server through connectMcp, in its Durable Object", async () => {
    const events = await chatTurn(worker.url, "note: buy milk");
    const result = events.find((event) => event.event === "tool-result");
    expect(result?.data).toMatchObject({ name: "notes_add" });
    expect(String(result?.data.output)).toMatch(/^Saved note \w+: buy milk$/);
    expect(events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });
  });
});

describe("the same Worker started with nodejs_compat (the probe's control)", () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker({}, "wrangler.toml", undefined, {
      entrypoint: PROBE,
      compatibilityFlags: ["enable_request_signal", "nodejs_compat"],
    });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
  });

  it("has process, Buffer and the node:* modules, so the probe above can tell", async () => {
    const probe = await probeOf(worker);
    expect(probe.process).toBe("object");
    expect(probe.Buffer).toBe("function");
    expect(Object.values(probe.modules)).not.toContain(false);
  });
});
