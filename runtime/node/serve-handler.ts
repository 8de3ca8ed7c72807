/**
 * Serves a fetch-style handler (`Request → Response`) over real HTTP with `node:http`, on 127.0.0.1
 * by default and port 0 (any free port). A client that disconnects aborts `request.signal` and cancels
 * the response body; a response body that errors resets the connection, as a crashed upstream would.
 * Works in Node, Deno and Bun (each implements `node:http`).
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A running server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The port the server listens on (the one picked when `port` was 0). */
  port: number;
  /** Stops accepting, ends open connections, and resolves when closed. */
  close(): Promise<void>;
}

/** Where to listen. */
export interface ServeOptions {
  /** The address to listen on. Default `127.0.0.1` (loopback only). */
  hostname?: string;
  /** The port to listen on. Default 0: any free port (see {@link LoopbackServer.port}). */
  port?: number;
}

async function toRequest(incoming: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Uint8Array);
  const headers = new Headers();
  for (const [key, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  const method = incoming.method ?? "GET";
  const init: RequestInit = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD" && chunks.length > 0) init.body = new Blob(chunks as BlobPart[]);
  return new Request(new URL(incoming.url ?? "/", origin), init);
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  outgoing.writeHead(response.status, headers);
  outgoing.flushHeaders();
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) reader.cancel().catch(() => {});
  });
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      outgoing.write(value);
    }
    outgoing.end();
  } catch {
    // The body failed (a scripted reset, or the client left): drop the connection without a clean end.
    outgoing.destroy();
  }
}

/** Serves `handler` until `close()`. */
export async function serveHandler(
  handler: (request: Request) => Promise<Response>,
  options: ServeOptions = {},
): Promise<LoopbackServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const server = createServer((incoming, outgoing) => {
    const controller = new AbortController();
    outgoing.once("close", () => {
      if (!outgoing.writableFinished)
        controller.abort(new DOMException("The client disconnected", "AbortError"));
    });
    const origin = `http://${incoming.headers.host ?? hostname}`;
    toRequest(incoming, origin, controller.signal)
      .then((request) => handler(request))
      .then((response) => send(response, outgoing))
      .catch(() => {
        if (!outgoing.headersSent && !outgoing.destroyed) {
          outgoing.writeHead(500, { "content-type": "application/json" });
          outgoing.end(JSON.stringify({ error: { message: "The handler failed" } }));
        } else {
          outgoing.destroy();
        }
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, hostname, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
