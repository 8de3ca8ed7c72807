/**
 * The options of `connectMcpStdio`, in one table: the process's own (command, arguments, environment,
 * working directory, where stderr goes) and every option of an MCP session, whose rules are
 * `connectMcp`'s own table's, so an option added to sessions is checked here too. Unknown keys are
 * refused with the one probably meant, as for every other option set.
 *
 * @module
 */

import { invalidOption, notStringOption, notStringsOption } from "../../src/config/option-checks.ts";
import { checkOptions, type OptionTable } from "../../src/config/option-table.ts";
import { showValue } from "../../src/config/show-value.ts";
import type { ConfigError } from "../../src/errors/sdk-error.ts";
import { CONNECT_MCP_OPTIONS, type McpSessionOptions } from "../../src/mcp/mcp-options.ts";

/**
 * Where the server's stderr (its log) goes: `"pipe"` read by Wisp, its last lines kept for errors;
 * `"inherit"` this process's stderr; `"ignore"` nowhere; or a function given each line as it arrives
 * (the last lines are kept for errors too).
 */
export type McpStdioStderr = "pipe" | "inherit" | "ignore" | ((line: string) => void);

/** The options of an MCP session that only Streamable HTTP has (a stdio session ends with its process). */
type HttpOnly = "resume" | "listen";

/**
 * Options of {@link connectMcpStdio}: the server's command line and process, and the options of the
 * session (timeouts, `prefix`, `filter`, `needsApproval`, `onNotification`, …) as for `connectMcp`.
 */
export interface ConnectMcpStdioOptions extends Omit<McpSessionOptions, HttpOnly> {
  /** The program to start: a path, or a name looked up on the `PATH` of `env` (no shell). */
  command: string;
  /**
   * Its arguments (default none). Passed as they are: no shell, no quoting, no expansion. One with a
   * NUL character is refused (its value not shown).
   */
  args?: readonly string[];
  /**
   * Environment variables for the server, added to a safe inherited few (`HOME`, `LOGNAME`, `PATH`,
   * `SHELL`, `TERM`, `USER`; on Windows `APPDATA`, `PATH`, `SYSTEMROOT`, `TEMP`, `USERPROFILE`, …).
   * Nothing else of this process's environment is passed on; a key set to `undefined` is removed.
   * Values are never shown in errors or records (what the server writes to stderr is redacted of them);
   * a key or value with a NUL character is refused.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /** Where the server's stderr goes (default `"pipe"`: read, its last lines kept for errors). */
  stderr?: McpStdioStderr;
}

/** The environment variables passed on by default (those sudo keeps, and Windows' essentials). */
const INHERITED_ENV: Readonly<Record<string, readonly string[]>> = {
  win32: [
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMFILES",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
  ],
  other: ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"],
};

/**
 * The server's environment: the safe inherited few from `parent` (a value that starts with `()`, a
 * shell function, is never passed on), then `env` over them. A variable this process may not read
 * (Deno without `--allow-env`) is left out.
 */
export function serverEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  platform: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of INHERITED_ENV[platform === "win32" ? "win32" : "other"] ?? []) {
    let value: string | undefined;
    try {
      value = parent[key];
    } catch {
      continue; // not allowed to read it
    }
    if (value !== undefined && !value.startsWith("()")) result[key] = value;
  }
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete result[key];
    else result[key] = value;
  }
  return result;
}

/**
 * A NUL character: no program name, argument or environment variable can hold one (the system's
 * strings end there), and a runtime that refuses it quotes the whole value in its message.
 */
const hasNul = (text: string): boolean => text.includes("\0");

/** The error for a NUL in `path`'s value; the value itself is never shown (it may be a secret). */
const nulRefused = (path: string, what: string): ConfigError =>
  invalidOption(`${what} holds a NUL character (\\0), which no process can be given`, path);

function checkCommand(value: unknown, path: string): ConfigError | undefined {
  if (typeof value === "string" && hasNul(value)) return nulRefused(path, path);
  if (typeof value === "string" && value.trim() !== "") return undefined;
  return invalidOption(
    `connectMcpStdio needs a command (the server's program), got ${showValue(value)}`,
    path,
  );
}

function checkEnv(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return invalidOption(`${path} must be an object of strings, got ${showValue(value)}`, path);
  for (const [key, item] of Object.entries(value)) {
    // The value itself is never shown: it may be a secret. Nor is a key with a NUL (a value pasted
    // into the wrong place, perhaps).
    if (hasNul(key)) return nulRefused(path, `A key of ${path}`);
    if (item !== undefined && typeof item !== "string")
      return invalidOption(
        `${path}.${key} must be a string or undefined, got a ${typeof item}`,
        `${path}.${key}`,
      );
    if (item !== undefined && hasNul(item)) return nulRefused(`${path}.${key}`, `${path}.${key}`);
  }
  return undefined;
}

/** An array of strings, none with a NUL; an argument is never shown (`--api-key` and its value). */
function checkArgs(value: unknown, path: string): ConfigError | undefined {
  const problem = notStringsOption(value, path);
  if (problem !== undefined || value === undefined) return problem;
  const index = (value as readonly string[]).findIndex(hasNul);
  return index === -1 ? undefined : nulRefused(`${path}.${index}`, `${path}[${index}]`);
}

/** A string without a NUL, as the working directory. */
function checkCwd(value: unknown, path: string): ConfigError | undefined {
  const problem = notStringOption(value, path);
  if (problem !== undefined || value === undefined) return problem;
  return hasNul(value as string) ? nulRefused(path, path) : undefined;
}

function checkStderr(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || value === "pipe" || value === "inherit" || value === "ignore") return undefined;
  if (typeof value === "function") return undefined;
  return invalidOption(
    `${path} must be "pipe", "inherit", "ignore" or a function of each line, got ${showValue(value)}`,
    path,
  );
}

// The session's rules are connectMcp's, less those of HTTP (where the server is, how to reach it).
const {
  url: _url,
  headers: _headers,
  fetch: _fetch,
  auth: _auth,
  resume: _resume,
  listen: _listen,
  ...SESSION_RULES
} = CONNECT_MCP_OPTIONS;

/** Every option of {@link ConnectMcpStdioOptions}, in the order they are checked. */
export const CONNECT_MCP_STDIO_OPTIONS: OptionTable<ConnectMcpStdioOptions> = {
  command: { required: true, check: checkCommand },
  args: checkArgs,
  env: checkEnv,
  cwd: checkCwd,
  stderr: checkStderr,
  ...SESSION_RULES,
};

/** Why an option of Streamable HTTP sessions has no meaning over stdio. */
const HTTP_ONLY: Readonly<Record<HttpOnly, string>> = {
  resume:
    "resume is for Streamable HTTP: a stdio server's session lives and ends with its process, so there is none to resume",
  listen: "listen is for Streamable HTTP: over stdio everything the server writes is read, always",
};

/** The first problem with `connectMcpStdio`'s options, or undefined. */
export function checkConnectMcpStdioOptions(options: ConnectMcpStdioOptions): ConfigError | undefined {
  if (typeof options !== "object" || options === null) return checkCommand(undefined, "command");
  for (const [key, message] of Object.entries(HTTP_ONLY))
    if (key in options) return invalidOption(message, key);
  return checkOptions(CONNECT_MCP_STDIO_OPTIONS, options, { what: "connectMcpStdio option" });
}
