/**
 * The MCP tools a run gets, next to the clock, calculator and messenger: the demo's own notes server
 * (worker/mcp-notes.ts, reached in-process through `connectMcp`'s `fetch` option, so no network hop
 * and no self-fetch), every server listed in `MCP_SERVERS`, and the servers the session added itself
 * (OAuth-protected ones with their stored tokens, worker/session-mcp.ts). A server that cannot be reached is
 * left out of the run with a warning rather than failing it.
 *
 * @module
 */

import type { JsonObject, Tool } from "wisp-agent";
import { type ConnectMcpOptions, connectMcp, type McpConnection } from "wisp-agent/mcp";
import type { Env } from "./env.ts";
import { handleMcp } from "./mcp-notes.ts";
import { workerTelemetry } from "./telemetry.ts";

/** The origin the demo's own MCP server is addressed by (requests never leave the Worker). */
const NOTES_MCP_URL = "https://wisp-demo.internal/mcp";

/** One server of `MCP_SERVERS`. */
export interface McpServerConfig {
  url: string;
  prefix?: string;
  headers?: Record<string, string>;
}

/**
 * Reads `MCP_SERVERS`: a JSON array of `{ url, prefix?, headers? }`, or a comma-separated list of
 * `url` or `prefix=url` entries. Entries that are not http(s) URLs are dropped with a warning.
 */
export function parseMcpServers(value: string | undefined, warnings: string[] = []): McpServerConfig[] {
  const source = value?.trim() ?? "";
  if (source === "") return [];
  let entries: unknown[];
  if (source.startsWith("[")) {
    try {
      entries = JSON.parse(source) as unknown[];
    } catch {
      warnings.push("MCP_SERVERS is not valid JSON");
      return [];
    }
  } else {
    entries = source.split(",").map((part) => {
      const entry = part.trim();
      // `prefix=url`, where the prefix comes before the "://" (a url's own query may hold "="). An entry
      // without "://" holds no http(s) url either way, and is skipped below.
      const equals = entry.indexOf("=");
      return equals > 0 && equals < entry.indexOf("://")
        ? { prefix: entry.slice(0, equals), url: entry.slice(equals + 1) }
        : { url: entry };
    });
  }
  const servers: McpServerConfig[] = [];
  // JSON that starts with "[" and parses is an array.
  for (const entry of entries) {
    const { url, prefix, headers } = (entry ?? {}) as { url?: unknown; prefix?: unknown; headers?: unknown };
    if (typeof url !== "string" || !/^https?:\/\//.test(url)) {
      warnings.push(`MCP_SERVERS: skipped an entry without an http(s) url`);
      continue;
    }
    const server: McpServerConfig = { url };
    if (typeof prefix === "string" && prefix !== "") server.prefix = prefix;
    if (typeof headers === "object" && headers !== null) server.headers = headers as Record<string, string>;
    servers.push(server);
  }
  return servers;
}

/** The MCP tools of one run and how to let them go. */
export interface RunMcpTools {
  tools: Tool<JsonObject>[];
  warnings: string[];
  close(): Promise<void>;
}

/** How long a run waits for its MCP servers, all of them together (each request has its own limit too). */
const MCP_CONNECT_DEADLINE_MS = 10_000;

/**
 * Connects to the notes server and to `MCP_SERVERS` in parallel, all within
 * {@link MCP_CONNECT_DEADLINE_MS} (a server's handshake and its pages of tools together); `signal` (the
 * run's cancel) ends the wait at once. A server not connected by then is left out with a warning, as is
 * a tool whose name is taken (by a local tool in `reserved`, or an earlier server). `sessionServers` are
 * the servers the session added itself (worker/session-mcp.ts, with their OAuth), connected last.
 */
export async function connectRunMcp(
  env: Env,
  reserved: readonly string[] = [],
  signal?: AbortSignal,
  sessionServers: readonly ConnectMcpOptions[] = [],
): Promise<RunMcpTools> {
  const warnings: string[] = [];
  const notes: ConnectMcpOptions = {
    url: NOTES_MCP_URL,
    prefix: "notes_",
    listen: false,
    timeoutMs: 10_000,
    fetch: async (input, init) => handleMcp(new Request(input, init), env.SESSIONS),
  };
  const others = [
    ...parseMcpServers(env.MCP_SERVERS, warnings).map(
      (server): ConnectMcpOptions => ({
        url: server.url,
        timeoutMs: 10_000,
        listen: false,
        ...(server.prefix === undefined ? {} : { prefix: server.prefix }),
        ...(server.headers === undefined ? {} : { headers: server.headers }),
      }),
    ),
    ...sessionServers,
  ];
  // Connecting is bounded as a whole; once connected, aborting this closes the connections (close()).
  const connecting = new AbortController();
  const deadline = new DOMException(`not connected within ${MCP_CONNECT_DEADLINE_MS} ms`, "TimeoutError");
  const timer = setTimeout(() => connecting.abort(deadline), MCP_CONNECT_DEADLINE_MS);
  const cancel = (): void => connecting.abort(signal?.reason);
  if (signal?.aborted) cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  // With OTEL_EXPORTER_OTLP_ENDPOINT, each MCP request is a span under the tool call that made it.
  const traced = workerTelemetry(env);
  const telemetry = traced === undefined ? {} : { telemetry: { tracer: traced.tracer } };
  const results = await Promise.all(
    [notes, ...others].map((options) => connectMcp({ ...options, ...telemetry, signal: connecting.signal })),
  ).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", cancel);
  });
  const connections: McpConnection[] = [];
  results.forEach((result, index) => {
    if (result.ok) connections.push(result.value);
    else {
      // The deadline's own words rather than the generic "timeout expired" of the abort it caused.
      const why = result.error.cause === deadline ? deadline.message : result.error.message;
      warnings.push(`MCP server ${index === 0 ? "notes" : (others[index - 1]?.url ?? "")}: ${why}`);
    }
  });
  const names = new Set<string>(reserved);
  const tools: Tool<JsonObject>[] = [];
  for (const tool of connections.flatMap((connection) => connection.tools)) {
    if (names.has(tool.name))
      warnings.push(`MCP tool ${tool.name} appears twice; the second is left out (set a prefix)`);
    else {
      names.add(tool.name);
      tools.push(tool);
    }
  }
  for (const warning of warnings) console.warn(warning);
  return { tools, warnings, close: async () => void (await Promise.all(connections.map((c) => c.close()))) };
}
