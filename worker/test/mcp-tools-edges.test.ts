/**
 * The edges of worker/mcp-tools.ts, inside workerd. `parseMcpServers`: blank values, a JSON list
 * after spaces, invalid JSON, entries that are not http(s) URLs, an empty prefix and headers that are
 * not an object. `connectRunMcp` against a pretend network (global `fetch` stubbed): an `MCP_SERVERS`
 * server is connected with its prefix and headers and never listened to; a server that cannot be
 * reached is named in a warning (logged too); a tool name taken is left out; the wait ends at the
 * deadline and at the run's cancel; once connected, the run's signal is let go and only `close()`
 * ends the servers' sessions; with OTEL_EXPORTER_OTLP_ENDPOINT the MCP requests are traced.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../env.ts";
import { handleMcp } from "../mcp-notes.ts";
import { connectRunMcp, parseMcpServers } from "../mcp-tools.ts";
import { workerTelemetry } from "../telemetry.ts";

const OTHER = "https://other.example/mcp";
const DOWN = "https://down.example/mcp";
const SLOW = "https://slow.example/mcp";

/** What the pretend network saw: each request's method, URL and headers, and OTLP bodies. */
interface Seen {
  requests: { method: string; url: string; headers: Headers }[];
  otlp: string[];
}

/**
 * Stubs `fetch`: OTHER is the demo's notes server (with a session id, so closing sends DELETE), DOWN
 * answers 503, SLOW answers only its request's abort, and `otlp` takes trace exports.
 */
function pretendNetwork(otlp = "https://otlp.invalid"): Seen {
  const seen: Seen = { requests: [], otlp: [] };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url.startsWith(otlp)) {
      seen.otlp.push(await request.text());
      return new Response("{}", { headers: { "content-type": "application/json" } });
    }
    seen.requests.push({ method: request.method, url: request.url, headers: request.headers });
    if (request.url === DOWN) return new Response("down", { status: 503 });
    if (request.url === SLOW) {
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
      });
    }
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    if (request.method === "GET") return new Response(null, { status: 405 });
    const answer = await handleMcp(request, env.SESSIONS);
    const headers = new Headers(answer.headers);
    headers.set("mcp-session-id", "pretend-session");
    return new Response(answer.body, { status: answer.status, headers });
  });
  return seen;
}

const withServers = (servers: string, more: Partial<Env> = {}): Env => ({
  ...(env as Env),
  MCP_SERVERS: servers,
  ...more,
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("parseMcpServers", () => {
  it("reads a blank value as no servers and no warning, and a JSON list after spaces as JSON", () => {
    const warnings: string[] = [];
    expect(parseMcpServers("   ", warnings)).toEqual([]);
    expect(parseMcpServers(`  [{"url":"${OTHER}","prefix":"o_"}]`, warnings)).toEqual([
      { url: OTHER, prefix: "o_" },
    ]);
    expect(warnings).toEqual([]);
  });

  it("warns of JSON that does not parse", () => {
    const warnings: string[] = [];
    expect(parseMcpServers('[{"url":', warnings)).toEqual([]);
    expect(warnings).toEqual(["MCP_SERVERS is not valid JSON"]);
  });

  it("keeps http and https URLs, and skips with a warning what is not one (nor a prefix=url)", () => {
    const warnings: string[] = [];
    const servers = parseMcpServers(
      `http://127.0.0.1:8788/mcp, =${OTHER}, mailto:${OTHER}, a=b, ftp://files.example/mcp`,
      warnings,
    );
    expect(servers).toEqual([{ url: "http://127.0.0.1:8788/mcp" }]);
    expect(warnings).toEqual(Array(4).fill("MCP_SERVERS: skipped an entry without an http(s) url"));
  });

  it("drops an empty prefix and headers that are not an object", () => {
    const entries = [
      { url: OTHER, prefix: "" },
      { url: OTHER, headers: null },
      { url: OTHER, headers: "authorization: Bearer t" },
    ];
    const servers = parseMcpServers(JSON.stringify(entries));
    expect(servers).toEqual([{ url: OTHER }, { url: OTHER }, { url: OTHER }]);
    for (const server of servers) expect(Object.keys(server)).toEqual(["url"]);
  });
});

describe("connectRunMcp", () => {
  it("connects an MCP_SERVERS server with its prefix and headers, never listens, and lets the run's signal go", async () => {
    const seen = pretendNetwork();
    const cancel = new AbortController();
    const servers = JSON.stringify([
      { url: OTHER, prefix: "o_", headers: { "x-api-key": "k-1" } },
      { url: `${OTHER}?plain` },
    ]);
    const mcp = await connectRunMcp(withServers(servers), [], cancel.signal);
    expect(mcp.warnings).toEqual([]);
    const names = mcp.tools.map((tool) => tool.name);
    expect(names).toContain("notes_add");
    expect(names).toContain("o_add");
    // The unprefixed server's tools are named as the notes server's are (notes_ is only the notes server's).
    expect(names).toContain("add");
    const toOther = seen.requests.filter((request) => request.url === OTHER);
    expect(toOther.length).toBeGreaterThan(0);
    for (const request of toOther) expect(request.headers.get("x-api-key")).toBe("k-1");
    expect(
      seen.requests.filter((request) => request.url === `${OTHER}?plain`)[0]?.headers.get("x-api-key"),
    ).toBe(null);
    expect(seen.requests.map((request) => request.method)).not.toContain("GET");
    // Connected: cancelling the run now ends no server's session; close() does, for each server.
    cancel.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.requests.map((request) => request.method)).not.toContain("DELETE");
    await mcp.close();
    expect(
      seen.requests.filter((request) => request.method === "DELETE").map((request) => request.url),
    ).toEqual([OTHER, `${OTHER}?plain`]);
  });

  it("names a server that cannot be reached in a warning, and logs it", async () => {
    pretendNetwork();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const mcp = await connectRunMcp(withServers(`o_=${OTHER}, ${DOWN}`));
    expect(mcp.warnings).toEqual([expect.stringMatching(/^MCP server https:\/\/down\.example\/mcp: \S/)]);
    expect(warn.mock.calls).toEqual([[mcp.warnings[0]]]);
    expect(mcp.tools.map((tool) => tool.name)).toContain("o_add");
    await mcp.close();
  });

  it("leaves out a tool whose name is taken, by a local tool or an earlier server", async () => {
    pretendNetwork();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const mcp = await connectRunMcp(withServers(`notes_=${OTHER}`), ["notes_list"]);
    const names = mcp.tools.map((tool) => tool.name);
    expect(names.filter((name) => name === "notes_list")).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("notes_add");
    expect(mcp.warnings).toContain(
      "MCP tool notes_list appears twice; the second is left out (set a prefix)",
    );
    expect(mcp.warnings).toContain("MCP tool notes_add appears twice; the second is left out (set a prefix)");
    await mcp.close();
  });

  it("stops waiting for a server at the deadline (10 s for all), naming it", async () => {
    pretendNetwork();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const connecting = connectRunMcp(withServers(SLOW));
    await vi.advanceTimersByTimeAsync(10_000);
    const mcp = await connecting;
    expect(mcp.warnings).toEqual([`MCP server ${SLOW}: not connected within 10000 ms`]);
    await mcp.close();
  });

  it("stops waiting when the run is cancelled meanwhile", async () => {
    pretendNetwork();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const cancel = new AbortController();
    const connecting = connectRunMcp(withServers(SLOW), [], cancel.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    cancel.abort(new DOMException("Cancelled by the test", "AbortError"));
    const mcp = await connecting;
    // The run's own abort, not the deadline 10 s later.
    // (The notes server may or may not have connected before the cancel.)
    expect(mcp.warnings).toContain(`MCP server ${SLOW}: The run was aborted`);
    await mcp.close();
  });

  it("traces each MCP request when OTEL_EXPORTER_OTLP_ENDPOINT is set", async () => {
    const endpoint = "https://otlp.mcp-tools-edges.test";
    const seen = pretendNetwork(endpoint);
    const traced = withServers("", { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    const mcp = await connectRunMcp(traced);
    await workerTelemetry(traced)?.flush();
    expect(seen.otlp.join("\n")).toContain('"initialize"');
    await mcp.close();
  });
});
