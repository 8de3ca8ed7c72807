/**
 * A real MCP server for the tests and the bench: the official TypeScript SDK's McpServer behind its
 * Streamable HTTP transport, on 127.0.0.1 at a free port. Stateful (a session per client, the GET
 * stream, list-change notifications) or stateless (a fresh server per request); answers as SSE or,
 * with `json: true`, as JSON; with `resumable: true` it keeps events (the SDK's InMemoryEventStore),
 * so a tool may close its response stream and the client must resume it with Last-Event-ID, after the
 * `retry:` it sends (`retryInterval`, 50 ms unless given). Its tools add, sleep (cancellable: the server records every call whose
 * signal was aborted, which only a `notifications/cancelled` does), fail, return structured content
 * (right or wrong for its outputSchema), report progress, and change the tool list. Other paths can be
 * answered by `fallback` (the cross-runtime tests serve their pages and the built package from it);
 * `extend(server)` registers more (resources, prompts, tools that ask the client questions).
 * Plain JavaScript so the bench and the runtime drivers can import it without a build.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * @typedef {object} ServerLog
 * @property {string[]} cancelled request ids whose handler saw its signal abort
 * @property {string[]} methods every JSON-RPC method posted, in order
 * @property {Array<string | undefined>} versions the MCP-Protocol-Version header of each POST
 * @property {Array<string | undefined>} authorizations the Authorization header of each POST
 * @property {string[]} resumes the Last-Event-ID of each GET that resumed a stream
 * @property {number[]} resumedAt when each GET that resumed a stream arrived (`Date.now()`)
 * @property {number[]} closedAt when the `poll` tool closed each of its response streams (`Date.now()`)
 * @property {unknown[]} capabilities the client capabilities of each `initialize`, in order
 */

/**
 * Registers the test tools on an McpServer.
 * @param {McpServer} server
 * @param {ServerLog} log
 */
function registerTools(server, log) {
  server.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool(
    "sleep",
    {
      description: "Waits ms milliseconds, reporting progress",
      inputSchema: { ms: z.number().int().min(0) },
    },
    async ({ ms }, extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: 0, total: ms, message: "started" },
        });
      }
      const done = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(true), ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      if (!done) log.cancelled.push(String(extra.requestId));
      return { content: [{ type: "text", text: done ? `slept ${ms} ms` : "cancelled" }] };
    },
  );
  server.registerTool(
    "fail",
    { description: "Always fails", inputSchema: { why: z.string() } },
    async ({ why }) => ({ isError: true, content: [{ type: "text", text: `failed: ${why}` }] }),
  );
  server.registerTool(
    "weather",
    {
      description: "Structured weather",
      inputSchema: { city: z.string(), wrong: z.boolean().optional() },
      outputSchema: { city: z.string(), celsius: z.number() },
    },
    async ({ city, wrong }) => {
      const structuredContent = { city, celsius: 21 };
      // A deliberately wrong answer bypasses the server's own output check by throwing nothing: the
      // SDK validates structuredContent, so `wrong` returns an error result shaped by hand instead.
      if (wrong) return { content: [{ type: "text", text: "no structure" }] };
      return { content: [], structuredContent };
    },
  );
  server.registerTool("picture", { description: "A tiny image and a text resource" }, async () => ({
    content: [
      { type: "text", text: "here it is" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource", resource: { uri: "note://1", mimeType: "text/plain", text: "note one" } },
    ],
  }));
  server.registerTool(
    "poll",
    { description: "Closes its response stream (when the server keeps events), then answers later" },
    async (extra) => {
      if (extra.closeSSEStream) {
        extra.closeSSEStream();
        log.closedAt.push(Date.now());
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
      return {
        content: [{ type: "text", text: extra.closeSSEStream ? "answered after a resume" : "answered" }],
      };
    },
  );
  let added = 0;
  server.registerTool("grow", { description: "Adds a tool named extra_<n> to the list" }, async () => {
    added++;
    server.registerTool(`extra_${added}`, { description: `Extra tool ${added}` }, async () => ({
      content: [{ type: "text", text: `extra ${added}` }],
    }));
    return { content: [{ type: "text", text: `added extra_${added}` }] };
  });
}

/**
 * Starts a server.
 * @param {{ stateless?: boolean, json?: boolean, resumable?: boolean, retryInterval?: number, fallback?: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void, extend?: (server: McpServer) => void }} [options]
 * @returns {Promise<{ url: string, origin: string, log: ServerLog, sessions: Map<string, unknown>, forgetSessions(): void, close(): Promise<void> }>}
 */
export async function startOfficialServer(options = {}) {
  /** @type {ServerLog} */
  const log = {
    cancelled: [],
    methods: [],
    versions: [],
    authorizations: [],
    resumes: [],
    resumedAt: [],
    closedAt: [],
    capabilities: [],
  };
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();

  const newServer = () => {
    const server = new McpServer({ name: "wisp-test-server", version: "1.0.0" });
    registerTools(server, log);
    options.extend?.(server);
    return server;
  };

  async function handleStateful(req, res, body) {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (typeof id === "string" || body?.method !== "initialize") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }),
        );
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: options.json === true,
        ...(options.resumable
          ? { eventStore: new InMemoryEventStore(), retryInterval: options.retryInterval ?? 50 }
          : {}),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  }

  async function handleStateless(req, res, body) {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.json === true,
    });
    const server = newServer();
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer(async (req, res) => {
    if (!req.url?.startsWith("/mcp")) {
      if (options.fallback) options.fallback(req, res);
      else res.writeHead(404).end();
      return;
    }
    let body;
    const lastEventId = req.headers["last-event-id"];
    if (req.method === "GET" && typeof lastEventId === "string") {
      log.resumes.push(lastEventId);
      log.resumedAt.push(Date.now());
    }
    if (req.method === "POST") {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const message of Array.isArray(body) ? body : [body]) {
        log.methods.push(message.method ?? "(response)");
        if (message.method === "initialize") log.capabilities.push(message.params?.capabilities);
      }
      const version = req.headers["mcp-protocol-version"];
      log.versions.push(typeof version === "string" ? version : undefined);
      const authorization = req.headers.authorization;
      log.authorizations.push(typeof authorization === "string" ? authorization : undefined);
    }
    try {
      if (options.stateless) await handleStateless(req, res, body);
      else await handleStateful(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = http.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    url: `${origin}/mcp`,
    origin,
    log,
    sessions,
    /** Drops every session, as a server restart would: the next request with an old id gets 404. */
    forgetSessions() {
      for (const transport of sessions.values()) void transport.close();
      sessions.clear();
    },
    async close() {
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(() => resolve(undefined)));
    },
  };
}
