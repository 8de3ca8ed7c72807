/**
 * `connectMcpStdio`: starts a local MCP server as a child process and gives its tools as Wisp tools,
 * over MCP's stdio transport (mcp-stdio.ts). The session is `connectMcp`'s (`connectOver`); the
 * process lives exactly as long as the connection.
 *
 * @module
 */

import process from "node:process";
import type { Result } from "../../src/agent/result.ts";
import { err, ok } from "../../src/agent/result-helpers.ts";
import { classifyThrown } from "../../src/errors/classify.ts";
import { type AnySdkError, isSdkError } from "../../src/errors/sdk-error.ts";
import { connectOver, type McpConnection } from "../../src/mcp/connect-mcp.ts";
import { MCP_PROVIDER } from "../../src/mcp/mcp-failures.ts";
import { asyncDispose } from "../../src/session/async-dispose.ts";
import { McpStdio } from "./mcp-stdio.ts";
import {
  type ConnectMcpStdioOptions,
  checkConnectMcpStdioOptions,
  serverEnvironment,
} from "./mcp-stdio-options.ts";
import { shownCommand } from "./shown-command.ts";

/** A connection to a server process: `connectMcp`'s, and the process's id. */
export interface McpStdioConnection extends McpConnection {
  /** The server's process id (undefined only where the runtime does not tell it). */
  readonly pid: number | undefined;
}

/** The values of the caller's `env`: never shown in an error (stderr's tail is redacted of them). */
function secretsOf(env: ConnectMcpStdioOptions["env"]): string[] {
  return Object.values(env ?? {}).filter((value): value is string => typeof value === "string");
}

/** The first problem with the options, as an SdkError (a getter that throws included), or undefined. */
function problemWith(options: ConnectMcpStdioOptions): AnySdkError | undefined {
  try {
    return checkConnectMcpStdioOptions(options);
  } catch (thrown) {
    return classifyThrown(thrown, {});
  }
}

/**
 * Starts an MCP server as a child process (no shell) and connects to it over stdio: newline-delimited
 * JSON-RPC on its stdin and stdout, its stderr its log. Resolves to the same connection as
 * `connectMcp`: the server's tools as Wisp tools, `record()`, `refreshTools()`, `close()`. Never throws.
 *
 * The process lives as long as the connection: `close()` (or an abort of `signal`) closes its stdin,
 * then sends SIGTERM, then SIGKILL, each after 2 s, and resolves once it is gone; if this process
 * exits first, the server is killed. A bad option, or a command that cannot be started (`ENOENT`,
 * `EACCES`), is a ConfigError at its path; a server that exits or crashes fails every waiting request
 * at once with a RequestError `NETWORK` whose message carries the exit code or signal and the last
 * lines of its stderr; a line on stdout that is not JSON-RPC is a ParseError; a JSON-RPC error a
 * ProviderError (`provider: "mcp"`); silence past `timeoutMs` a RequestError `TIMEOUT`; an abort an
 * AbortError.
 *
 * @example
 * ```ts
 * import { connectMcpStdio } from "wisp-agent/mcp/stdio";
 * const mcp = await connectMcpStdio({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], prefix: "everything_" });
 * if (!mcp.ok) throw mcp.error;
 * const result = await runAgent({ model, apiKey, prompt: "Add 2 and 3", tools: mcp.value.tools });
 * await mcp.value.close(); // the server process is gone when this resolves
 * ```
 */
export async function connectMcpStdio(
  options: ConnectMcpStdioOptions,
): Promise<Result<McpStdioConnection, AnySdkError, undefined>> {
  const problem = problemWith(options);
  if (problem !== undefined) return err(problem);
  const { signal } = options;
  if (signal?.aborted) return err(classifyThrown(signal.reason, { provider: MCP_PROVIDER, signal }));
  const args = options.args ?? [];
  let transport: McpStdio;
  try {
    transport = await McpStdio.start(
      {
        command: options.command,
        args,
        env: serverEnvironment(process.env, process.platform, options.env),
        cwd: options.cwd,
        stderr: options.stderr ?? "pipe",
      },
      shownCommand(options.command, args),
      secretsOf(options.env),
    );
  } catch (error) {
    return err(isSdkError(error) ? error : classifyThrown(error, { provider: MCP_PROVIDER }));
  }
  const connected = await connectOver(transport, options);
  if (!connected.ok) {
    // connectOver closed the client, which stops the process: wait for it, so nothing outlives the answer.
    await transport.terminate();
    return connected;
  }
  return ok(tiedToProcess(connected.value, transport));
}

/**
 * The connection, whose `close()` always ends the process, even with `{ endSession: false }` (a
 * stdio session cannot be resumed: it ends with its process).
 */
function tiedToProcess(connection: McpConnection, transport: McpStdio): McpStdioConnection {
  const close = async (closeOptions?: Parameters<McpConnection["close"]>[0]): Promise<void> => {
    await connection.close(closeOptions);
    await transport.terminate();
  };
  // Everything else is the connection's own (its getters read the live tool list), through the prototype.
  const tied: McpStdioConnection = Object.create(connection);
  return Object.defineProperties(tied, {
    pid: { value: transport.pid, enumerable: true },
    close: { value: close },
    [asyncDispose]: { value: () => close() },
  });
}
