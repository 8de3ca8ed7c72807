/**
 * A session's list of connected MCP servers (worker/mcp-auth-storage.ts): adding a server keeps the
 * others, and adding one again replaces its entry instead of listing it twice.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addSessionMcpServer, type SessionMcpServer, sessionMcpServers } from "../mcp-auth-storage.ts";

const server = (url: string, addedAt: number): SessionMcpServer => ({
  url,
  redirectUrl: "https://demo.test/api/mcp/callback",
  addedAt,
});

describe("addSessionMcpServer", () => {
  it("keeps the servers added before and replaces the entry with the same URL", async () => {
    const stub = env.RUNNER.get(env.RUNNER.idFromName("mcp-auth-storage-edges"));
    await runInDurableObject(stub, async (_instance, state) => {
      await addSessionMcpServer(state.storage, server("https://a.example/mcp", 1));
      await addSessionMcpServer(state.storage, server("https://b.example/mcp", 2));
      expect((await sessionMcpServers(state.storage)).map((entry) => entry.url)).toEqual([
        "https://a.example/mcp",
        "https://b.example/mcp",
      ]);
      await addSessionMcpServer(state.storage, { ...server("https://a.example/mcp", 3), prefix: "a" });
      expect(await sessionMcpServers(state.storage)).toEqual([
        server("https://b.example/mcp", 2),
        { ...server("https://a.example/mcp", 3), prefix: "a" },
      ]);
    });
  });
});
