/**
 * How the Streamable HTTP transport uses `auth` (any McpAuth, here a hand-made one): the header it
 * gives on every request, `refused` on a 401 or a 403 `insufficient_scope` and the request sent again,
 * at most 3 times, never for another 403 and never for the DELETE of `close()`.
 */
import { describe, expect, it } from "vitest";
import { connectMcp, type McpAuth } from "../../../src/mcp/index.ts";

interface Seen {
  method: string;
  rpc: string;
  authorization: string | null;
}

/** A stateful MCP server in place: `refuse` decides which requests get which refusal. */
function server(seen: Seen[], refuse: (entry: Seen) => Response | undefined) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body =
      request.method === "POST" ? ((await request.json()) as { id?: number; method: string }) : undefined;
    const entry = {
      method: request.method,
      rpc: body?.method ?? "",
      authorization: request.headers.get("authorization"),
    };
    seen.push(entry);
    const refusal = refuse(entry);
    if (refusal !== undefined) return refusal;
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    if (body?.id === undefined) return new Response(null, { status: 202 });
    const result =
      body.method === "initialize"
        ? {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "s", version: "1" },
          }
        : { tools: [] };
    return Response.json(
      { jsonrpc: "2.0", id: body.id, result },
      { headers: { "mcp-session-id": "session-1" } },
    );
  };
}

/** An auth whose token is `token-<n>`, n counting the refusals it answered. */
function countingAuth(): McpAuth & { refusals: number[] } {
  const refusals: number[] = [];
  return {
    refusals,
    authorization: async () => `Bearer token-${refusals.length}`,
    refused: async (response) => {
      refusals.push(response.status);
      return true;
    },
  };
}

const unauthorized = () => new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });

describe("the transport with auth", () => {
  it("sends the header auth gives, and on a 401 asks auth and sends the request again", async () => {
    const seen: Seen[] = [];
    const auth = countingAuth();
    const fetch = server(seen, (entry) =>
      entry.authorization === "Bearer token-0" ? unauthorized() : undefined,
    );
    const connected = await connectMcp({ url: "https://s.example/mcp", fetch, auth, listen: false });
    expect(connected.ok).toBe(true);
    expect(auth.refusals).toEqual([401]);
    expect(seen.map((entry) => [entry.rpc, entry.authorization])).toEqual([
      ["initialize", "Bearer token-0"],
      ["initialize", "Bearer token-1"],
      ["notifications/initialized", "Bearer token-1"],
      ["tools/list", "Bearer token-1"],
    ]);
    if (connected.ok) await connected.value.close();
  });

  it("gives up after 3 new authorizations of one request, with the server's refusal", async () => {
    const seen: Seen[] = [];
    const auth = countingAuth();
    const fetch = server(seen, () =>
      Response.json(
        { error: "insufficient_scope" },
        {
          status: 403,
          headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="more"' },
        },
      ),
    );
    const connected = await connectMcp({ url: "https://s.example/mcp", fetch, auth, listen: false });
    expect(connected.ok).toBe(false);
    if (!connected.ok) expect(connected.error.status).toBe(403);
    expect(auth.refusals).toEqual([403, 403, 403]);
    expect(seen).toHaveLength(4);
  });

  it("does not ask auth about a 403 that is not insufficient_scope, nor about a refused DELETE", async () => {
    const forbidden = countingAuth();
    const denied = await connectMcp({
      url: "https://s.example/mcp",
      fetch: server(
        [],
        () =>
          new Response(null, {
            status: 403,
            headers: { "www-authenticate": 'Bearer error="invalid_token"' },
          }),
      ),
      auth: forbidden,
      listen: false,
    });
    expect(denied.ok).toBe(false);
    expect(forbidden.refusals).toEqual([]);

    const seen: Seen[] = [];
    const auth = countingAuth();
    const fetch = server(seen, (entry) => (entry.method === "DELETE" ? unauthorized() : undefined));
    const connected = await connectMcp({ url: "https://s.example/mcp", fetch, auth, listen: false });
    if (!connected.ok) throw connected.error;
    await connected.value.close();
    expect(seen.filter((entry) => entry.method === "DELETE")).toHaveLength(1);
    expect(auth.refusals).toEqual([]);
  });

  it("refuses an auth that is not an McpAuth as a ConfigError", async () => {
    const connected = await connectMcp({ url: "https://s.example/mcp", auth: {} as McpAuth });
    expect(!connected.ok && connected.error._tag).toBe("ConfigError");
    expect(!connected.ok && connected.error.path).toBe("auth");
  });
});
