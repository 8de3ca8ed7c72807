/**
 * A hand-written MCP server on real loopback HTTP that polls as SEP-1699 lets a server do: its one
 * tool's `tools/call` stream sends a priming event (`id: e1`, a `retry:` line, empty data) and
 * closes; the answer comes on the GET that resumes it with `Last-Event-ID`. Its GET for unprompted
 * messages either is not offered (405) or sends a `retry:` line and closes. Every arrival and close
 * is stamped with `Date.now()`, so a test on a fake clock can measure the waits between them exactly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** What the server does. */
export interface PollingServerOptions {
  /** The value of the `retry:` line the tools/call stream sends before it closes (sent as is). */
  retry: string;
  /** The value of the `retry:` line each GET for unprompted messages sends before it closes; without it, 405. */
  listenRetry?: string | undefined;
}

/** What the server saw and did, in order, each stamped with `Date.now()`. */
export interface PollingServerLog {
  /** When each tools/call stream was closed, before its answer. */
  closedAt: number[];
  /** When each GET resuming a stream arrived. */
  resumedAt: number[];
  /** The `Last-Event-ID` of each GET resuming a stream. */
  lastEventIds: string[];
  /** When each GET for unprompted messages arrived. */
  listenedAt: number[];
  /** When each GET for unprompted messages was closed. */
  listenClosedAt: number[];
}

/** A running polling server. */
export interface PollingServer {
  url: string;
  log: PollingServerLog;
  close(): Promise<void>;
}

const SESSION = "polling-session";
const json = (response: ServerResponse, value: unknown): void => {
  response.writeHead(200, { "content-type": "application/json", "mcp-session-id": SESSION });
  response.end(JSON.stringify(value));
};
const eventStream = (response: ServerResponse): void => {
  response.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": SESSION });
};

/** Starts the server on 127.0.0.1 at a free port. */
export async function startPollingServer(options: PollingServerOptions): Promise<PollingServer> {
  const log: PollingServerLog = {
    closedAt: [],
    resumedAt: [],
    lastEventIds: [],
    listenedAt: [],
    listenClosedAt: [],
  };
  let pendingCall: unknown;

  const onPost = (response: ServerResponse, body: string): void => {
    const message = JSON.parse(body) as { id?: unknown; method?: string };
    if (message.id === undefined) {
      response.writeHead(202).end();
    } else if (message.method === "initialize") {
      json(response, {
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-11-25",
          serverInfo: { name: "polling-server", version: "1" },
          capabilities: { tools: {} },
        },
      });
    } else if (message.method === "tools/list") {
      json(response, {
        jsonrpc: "2.0",
        id: message.id,
        result: { tools: [{ name: "slow", inputSchema: { type: "object" } }] },
      });
    } else if (message.method === "tools/call") {
      pendingCall = message.id;
      eventStream(response);
      response.write(`id: e1\nretry: ${options.retry}\ndata: \n\n`, () => {
        log.closedAt.push(Date.now());
        response.end();
      });
    } else {
      json(response, { jsonrpc: "2.0", id: message.id, result: {} });
    }
  };

  const onGet = (request: IncomingMessage, response: ServerResponse): void => {
    const lastEventId = request.headers["last-event-id"];
    if (typeof lastEventId === "string") {
      log.resumedAt.push(Date.now());
      log.lastEventIds.push(lastEventId);
      eventStream(response);
      const answer = {
        jsonrpc: "2.0",
        id: pendingCall,
        result: { content: [{ type: "text", text: "done" }] },
      };
      response.end(`id: e2\ndata: ${JSON.stringify(answer)}\n\n`);
      return;
    }
    if (options.listenRetry === undefined) {
      response.writeHead(405).end();
      return;
    }
    log.listenedAt.push(Date.now());
    eventStream(response);
    response.write(`retry: ${options.listenRetry}\n\n`, () => {
      log.listenClosedAt.push(Date.now());
      response.end();
    });
  };

  const server = createServer((request, response) => {
    if (request.method === "POST") {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        body += chunk;
      });
      request.on("end", () => onPost(response, body));
    } else if (request.method === "GET") {
      onGet(request, response);
    } else {
      request.resume();
      response.writeHead(200).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
