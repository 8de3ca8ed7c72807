/**
 * How a stdio server's failures become SdkErrors, in the family's meaning: a command that cannot be
 * started (not found, not executable) is a ConfigError at `command`; a process that exits, is killed or
 * crashes is a RequestError `NETWORK` (the transport is gone; not retryable: another attempt over
 * this connection cannot reach it) carrying the exit code or signal and the last lines of stderr; a
 * line that is not JSON-RPC, or too long, is a ParseError (`protocolFailure`), as for Streamable HTTP;
 * a message the server did not read in time (its stdin full) ends the connection with a RequestError
 * `NETWORK`.
 *
 * No secret reaches these errors: a start failure never repeats the runtime's message (Node's quotes
 * the option it refused, an `env` value included), only its code; stderr's tail is redacted with the
 * caller's `env` values and every provider-key shape (`redactText`).
 *
 * @module
 */

import { redactText } from "../../src/errors/redact.ts";
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

/**
 * What is kept of the runtime's error as the cause: its name and code, never its message (Node's
 * quotes the value it refused, which may be an `env` secret, and an ENOENT carries every argument).
 */
function safeCause(error: unknown, code: string | undefined): Error {
  const cause = new Error(
    `The runtime could not start the process${code === undefined ? "" : ` (${code})`}; its message is not kept, as it may quote a secret`,
  );
  if (error instanceof Error) cause.name = error.name;
  if (code !== undefined) Object.assign(cause, { code });
  return cause;
}

/**
 * The server could not be started: a ConfigError at `command` (or a RequestError for want of resources).
 * Its message and cause keep the runtime's code, never the runtime's message.
 */
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
        : code === undefined || NOT_STARTABLE.has(code)
          ? "the runtime refused its command, arguments, env or cwd"
          : "the system could not start it (out of processes or memory?)";
  const message = `The MCP server ${request.url} could not be started: ${why}${code === undefined ? "" : ` (${code})`}`;
  const fields = {
    provider: MCP_PROVIDER,
    request,
    cause: safeCause(error, code),
    ...(code === undefined ? {} : { causeCode: code }),
  };
  if (code === undefined || NOT_STARTABLE.has(code))
    return new ConfigError(message, { code: "CONFIG_INVALID", path: "command", ...fields });
  return new RequestError(message, { code: "NETWORK", ...fields });
}

/**
 * The process ended: every request still waiting fails with this. Each line of stderr's tail is
 * redacted: `secrets` (the values of the caller's `env`) and anything shaped like a provider key.
 */
export function exitFailure(
  exit: ProcessExit,
  lines: readonly string[],
  request: FailedRequest,
  secrets: readonly string[] = [],
): RequestError {
  const stderr = lines.map((line) => redactText(line, secrets));
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

/**
 * A message could not be written before its request gave up (the server stopped reading its stdin and
 * the pipe is full): part of its line may be in the pipe already, and a half line corrupts every
 * later message, so the connection ends; later requests fail with this.
 */
export function stalledFailure(request: FailedRequest): RequestError {
  return new RequestError(
    `The MCP server ${request.url} stopped reading its stdin: a message could not be written before its request gave up, so the connection was ended`,
    { code: "NETWORK", retryable: false, provider: MCP_PROVIDER, request },
  );
}

/** The connection was closed while requests waited: they fail with this. */
export function closedFailure(request: FailedRequest): ConfigError {
  return new ConfigError(`The MCP connection to ${request.url} was closed`, {
    code: "SESSION_CLOSED",
    provider: MCP_PROVIDER,
    request,
  });
}
