/**
 * The demo's MCP server at /mcp and its use by the agent, inside workerd: the official SDK's server
 * answering Wisp's `connectMcp` (through the Worker's own fetch), a run that saves and lists notes
 * through the `notes_` tools next to the calculator, MCP_SERVERS parsing, and the route's refusals.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { connectMcp } from "wisp-agent/mcp";
import { toolContext } from "../../test/support/tool-context.ts";
import { connectRunMcp, parseMcpServers } from "../mcp-tools.ts";
import { call, createSession, readEvents, send } from "./api.ts";

const context = toolContext();

describe("the demo's MCP server", () => {
  it("speaks MCP to connectMcp: tools listed, a note saved with structured content, then listed and read", async () => {
    const connected = await connectMcp({
      url: "http://demo.test/mcp",
      fetch: (_input, init) => call("/mcp", { ...init, method: init?.method ?? "GET" }),
      prefix: "notes_",
    });
    if (!connected.ok) throw connected.error;
    const mcp = connected.value;
    expect(mcp.tools.map((tool) => tool.name).sort()).toEqual([
      "notes_add",
      "notes_delete",
      "notes_list",
      "notes_read",
    ]);
    expect(mcp.record()).toEqual({ url: "http://demo.test/mcp", protocolVersion: "2025-11-25" });
    expect(mcp.instructions).toContain("notes store");
    const add = mcp.tools.find((tool) => tool.name === "notes_add");
    const saved = String(await add?.execute({ title: "Milk", text: "Buy milk" }, context));
    const id = /^Saved note (\w+): Milk$/.exec(saved)?.[1];
    expect(id).toBeDefined();
    const list = String(await mcp.tools.find((tool) => tool.name === "notes_list")?.execute({}, context));
    expect(list).toContain(`${id}: Milk`);
    const read = await mcp.tools
      .find((tool) => tool.name === "notes_read")
      ?.execute({ id: id ?? "" }, context);
    expect(read).toBe("Milk\n\nBuy milk");
    await expect(
      mcp.tools.find((tool) => tool.name === "notes_read")?.execute({ id: "nope" }, context),
    ).rejects.toThrow("No note nope");
    expect(await add?.parseArgs?.({ title: "" })).toEqual({
      ok: false,
      message: "text: required; title: expected at least 1 characters, got 0",
    });
    await mcp.close();
  });

  it("refuses GET and a browser of another origin", async () => {
    const get = await call("/mcp");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(get.headers.get("cache-control")).toBe("no-store");
    const foreign = await call("/mcp", {
      method: "POST",
      headers: {
        origin: "https://evil.example",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(foreign.status).toBe(403);
  });

  it("refuses a body over 64 KiB (413) and one that is not JSON (415) before the MCP server reads it", async () => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { pad: "x".repeat(70_000) },
    });
    const large = await call("/mcp", { method: "POST", headers, body: huge });
    expect([large.status, ((await large.json()) as { error: { code: string } }).error.code]).toEqual([
      413,
      "BODY_TOO_LARGE",
    ]);
    const form = await call("/mcp", {
      method: "POST",
      headers: { ...headers, "content-type": "text/plain" },
      body: "{}",
    });
    expect(form.status).toBe(415);
  });
});

describe("the demo agent with MCP tools", () => {
  it("saves a note through the MCP server and lists it in the next run", async () => {
    const session = await createSession();
    const first = await readEvents(await send(session, "note: call the plumber on Monday"));
    const results = first.events.filter((event) => event.event === "tool-result").map((event) => event.data);
    expect(results.map((result) => result.name)).toEqual(["notes_add"]);
    expect(String(results[0]?.output)).toMatch(/^Saved note \w+: call the plumber on Monday$/);
    expect(first.events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });

    const second = await readEvents(await send(session, "list my notes and what is 6 * 7"));
    const listed = second.events.filter((event) => event.event === "tool-result").map((event) => event.data);
    expect(listed.map((result) => result.name).sort()).toEqual(["calculator", "notes_list"]);
    expect(String(listed.find((result) => result.name === "notes_list")?.output)).toContain(
      "call the plumber on Monday",
    );
  });
});

describe("MCP_SERVERS", () => {
  it("reads a comma list with prefixes and a JSON list with headers, and skips what is not a URL", () => {
    const warnings: string[] = [];
    expect(parseMcpServers("https://a.example/mcp, docs_=https://b.example/mcp, nonsense", warnings)).toEqual(
      [{ url: "https://a.example/mcp" }, { url: "https://b.example/mcp", prefix: "docs_" }],
    );
    expect(warnings).toHaveLength(1);
    expect(
      parseMcpServers(
        '[{"url":"https://c.example/mcp","prefix":"c_","headers":{"authorization":"Bearer t"}}]',
      ),
    ).toEqual([{ url: "https://c.example/mcp", prefix: "c_", headers: { authorization: "Bearer t" } }]);
    expect(parseMcpServers(undefined)).toEqual([]);
    expect(parseMcpServers("https://d.example/mcp?key=abc, e_=https://e.example/mcp?a=b")).toEqual([
      { url: "https://d.example/mcp?key=abc" },
      { url: "https://e.example/mcp?a=b", prefix: "e_" },
    ]);
  });

  it("a run's cancel ends the wait for its MCP servers: none connected, each named in a warning", async () => {
    const cancelled = await connectRunMcp(
      env,
      [],
      AbortSignal.abort(new DOMException("Cancelled", "AbortError")),
    );
    expect(cancelled.tools).toEqual([]);
    expect(cancelled.warnings).toEqual([expect.stringMatching(/^MCP server notes: /)]);
    const connected = await connectRunMcp(env);
    expect(connected.tools.map((tool) => tool.name)).toContain("notes_add");
    await connected.close();
  });
});
