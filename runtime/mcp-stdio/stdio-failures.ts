/**
 * How a stdio server's failures become SdkErrors, in the family's meaning: a command that cannot be
 * started (not found, not executable) is a ConfigError at `command`; a process that exits, is killed or
 * crashes is a RequestError `NETWORK` (the transport is gone; not retryable: another attempt over
 * this connection cannot reach it) carrying the exit code or signal and the last lines of stderr; a
 * line that is not JSON-RPC, or too long, is a ParseError (`protocolFailure`), as for Streamable HTTP.
 *
 * @module
 */

import {
  type AnySdkError,
  ConfigError,
  type FailedRequest,
  RequestError,
} from "../../src/errors/sdk-error.ts";
import { MCP_PROVIDER } from "../../src/mcp/mcp-failures.ts";

/** How a process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** Codes of a start that the caller's options explain: the command (or `cwd`) is wrong. */
const NOT_STARTABLE = new Set(["ENOENT", "EACCES", "ENOTDIR", "EISDIR", "EPERM", "ERR_INVALID_ARG_VALUE"]);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
};

/** The server could not be started: a ConfigError at `command` (or a RequestError for want of resources). */
export function startFailure(
  error: unknown,
  request: FailedRequest,
  where: { command: string; cwd: string | undefined },
): AnySdkError {
  const code = codeOf(error);
  const lookedUp = !/[/\\]/.test(where.command);
  const missing = [lookedUp ? "it is not on the PATH" : "it does not exist"];
  if (where.cwd !== undefined) missing.push(`the cwd ${where.cwd} does not exist`);
  const why =
    code === "ENOENT"
      ? `${missing.join(", or ")}`
      : code === "EACCES" || code === "EPERM"
        ? "it may not be run (is it executable?)"
        : error instanceof Error
          ? error.message
          : String(error);
  const message = `The MCP server ${request.url} could not be started: ${why}${code === undefined ? "" : ` (${code})`}`;
  const fields = {
    provider: MCP_PROVIDER,
    request,
    cause: error,
    ...(code === undefined ? {} : { causeCode: code }),
  };
  if (code === undefined || NOT_STARTABLE.has(code))
    return new ConfigError(message, { code: "CONFIG_INVALID", path: "command", ...fields });
  return new RequestError(message, { code: "NETWORK", ...fields });
}

/** The process ended: every request still waiting fails with this. */
export function exitFailure(
  exit: ProcessExit,
  stderr: readonly string[],
  request: FailedRequest,
): RequestError {
  const how =
    exit.signal !== null
      ? `was killed by ${exit.signal}`
      : exit.code === null
        ? "stopped"
        : `exited with code ${exit.code}`;
  const tail =
    stderr.length === 0
      ? ""
      : `; the last lines of its stderr:\n${stderr.map((line) => `  ${line}`).join("\n")}`;
  return new RequestError(`The MCP server ${request.url} ${how}${tail}`, {
    code: "NETWORK",
    retryable: false,
    provider: MCP_PROVIDER,
    request,
    details: { exitCode: exit.code, signal: exit.signal, stderr: [...stderr] },
  });
}

/** The connection was closed while requests waited: they fail with this. */
export function closedFailure(request: FailedRequest): ConfigError {
  return new ConfigError(`The MCP connection to ${request.url} was closed`, {
    code: "SESSION_CLOSED",
    provider: MCP_PROVIDER,
    request,
  });
}
