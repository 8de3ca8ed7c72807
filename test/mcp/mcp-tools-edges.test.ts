/**
 * The Wisp tools of a server's list at their edges: a tool listed without `inputSchema` is an object
 * schema (for `filter`, `needsApproval` and the Wisp tool alike), two tools whose provider-safe
 * names would be the same make connecting fail with a ConfigError naming both, a tool without a name
 * is left out, names are cut at 64 characters, `needsApproval: true` holds every tool, and a tool
 * without a description or title gets one.
 */
import { describe, expect, it } from "vitest";
import { connectMcp, type McpToolInfo } from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";

/** A stateless MCP server in place, listing `tools`. */
function listing(tools: JsonObject[]): typeof globalThis.fetch {
  return async (_input, init) => {
    const message = JSON.parse(String(init?.body)) as JsonObject;
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: "2025-06-18",
            capabilities: { tools: {} },
            serverInfo: { name: "hand", version: "1" },
          }
        : { tools };
    return Response.json({ jsonrpc: "2.0", id: message.id as number, result });
  };
}

describe("a tool listed without inputSchema", () => {
  it("is given an object schema, seen by filter and needsApproval and sent as the Wisp tool's", async () => {
    const filtered: McpToolInfo[] = [];
    const approved: McpToolInfo[] = [];
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([{ name: "ping", description: "Answers pong" }]),
      listen: false,
      filter: (tool) => {
        filtered.push(tool);
        return true;
      },
      needsApproval: (tool) => {
        approved.push(tool);
        return false;
      },
    });
    if (!connected.ok) throw connected.error;
    expect(filtered).toEqual([
      { name: "ping", description: "Answers pong", inputSchema: { type: "object" } },
    ]);
    expect(approved.map((tool) => tool.inputSchema)).toEqual([{ type: "object" }]);
    expect(connected.value.tools.map((tool) => tool.inputSchema)).toEqual([{ type: "object" }]);
    await connected.value.close();
  });
});

describe("tools whose provider-safe names collide", () => {
  it("make connecting fail with a ConfigError at tools naming both", async () => {
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([
        { name: "notes.read", inputSchema: { type: "object" } },
        { name: "notes_read", inputSchema: { type: "object" } },
      ]),
      listen: false,
    });
    expect(connected.ok ? undefined : connected.error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "tools",
      message:
        'The MCP tools "notes.read" and "notes_read" would both be called "notes_read" (provider-safe names are letters, digits, _ and -, at most 64)',
    });
  });

  it("connect when a filter keeps only one of them", async () => {
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([{ name: "notes.read" }, { name: "notes_read" }]),
      listen: false,
      filter: (tool) => tool.name !== "notes.read",
    });
    if (!connected.ok) throw connected.error;
    expect(connected.value.tools.map((tool) => tool.name)).toEqual(["notes_read"]);
    await connected.value.close();
  });
});

describe("the Wisp tools of a server's list", () => {
  it("leave out a tool listed with an empty name", async () => {
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([{ name: "" }, { name: "ping" }]),
      listen: false,
    });
    if (!connected.ok) throw connected.error;
    expect(connected.value.tools.map((tool) => tool.name)).toEqual(["ping"]);
    await connected.value.close();
  });

  it("cut prefix and name to their first 64 characters", async () => {
    const long = "a".repeat(70);
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([{ name: long }]),
      listen: false,
      prefix: "notes_",
    });
    if (!connected.ok) throw connected.error;
    expect(connected.value.tools.map((tool) => tool.name)).toEqual([`notes_${"a".repeat(58)}`]);
    await connected.value.close();
  });

  it("all wait for approval when needsApproval is true", async () => {
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([{ name: "ping" }, { name: "pong" }]),
      listen: false,
      needsApproval: true,
    });
    if (!connected.ok) throw connected.error;
    expect(connected.value.tools.map((tool) => tool.needsApproval)).toEqual([true, true]);
    await connected.value.close();
  });

  it("are described by description, else title, else as 'The MCP tool <name>'", async () => {
    const connected = await connectMcp({
      url: "http://mcp.test/mcp",
      fetch: listing([
        { name: "a", title: "A title", description: "A description" },
        { name: "b", title: "B title" },
        { name: "c" },
      ]),
      listen: false,
    });
    if (!connected.ok) throw connected.error;
    expect(connected.value.tools.map((tool) => tool.description)).toEqual([
      "A description",
      "B title",
      "The MCP tool c",
    ]);
    await connected.value.close();
  });
});
