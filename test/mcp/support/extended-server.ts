/**
 * A test file's official MCP server with its own features (`extend`), started before its tests and
 * closed after them with every connection the tests opened; and the tool context those tests call with.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll } from "vitest";
import type { ToolContext } from "../../../src/index.ts";
import { type ConnectMcpOptions, connectMcp, type McpConnection } from "../../../src/mcp/index.ts";
import { okValue } from "../../support/results.ts";
import { startOfficialServer } from "./official-server.mjs";

type Server = Awaited<ReturnType<typeof startOfficialServer>>;

/** The running server of a describe block, and how to connect to it (connections closed after). */
export interface ExtendedServer {
  server(): Server;
  connect(options?: Partial<ConnectMcpOptions>): Promise<McpConnection>;
}

/** Starts the official server with `extend`'s features for the enclosing describe block. */
export function useExtendedServer(extend: (server: McpServer) => void): ExtendedServer {
  let server: Server | undefined;
  const open: McpConnection[] = [];
  beforeAll(async () => {
    server = await startOfficialServer({ extend });
  });
  afterAll(async () => {
    for (const connection of open) await connection.close();
    await server?.close();
  });
  const running = (): Server => {
    if (server === undefined) throw new Error("the server starts in beforeAll");
    return server;
  };
  return {
    server: running,
    async connect(options = {}) {
      const connection = okValue(await connectMcp({ url: running().url, ...options }));
      open.push(connection);
      return connection;
    },
  };
}

/** A tool call's context, under a 10 s limit. */
export const callContext = (): ToolContext => ({
  signal: AbortSignal.timeout(10_000),
  toolCallId: "call-1",
  sessionId: "s",
  turn: 1,
  messages: [],
});
