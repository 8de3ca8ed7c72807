/**
 * `connectMcpStdio` (wisp-agent/mcp/stdio) against a real stdio server — the official SDK's McpServer
 * behind its StdioServerTransport (support/stdio-server.mjs), started with this Node: tools listed
 * and called directly and from an agent run, the process's lifetime tied to the connection (close,
 * abort, a server that ignores SIGTERM), each failure as its typed error (a crash mid-call at once
 * with stderr's tail, a command that does not exist, output that is not JSON-RPC, a line too long),
 * stderr handed on, the environment kept to a safe few, and the options checked.
 */
import { afterEach, describe, expect, it } from "vitest";
import { connectMcpStdio, type McpStdioConnection } from "../../../runtime/mcp-stdio/index.ts";
import { CONNECT_MCP_STDIO_OPTIONS } from "../../../runtime/mcp-stdio/mcp-stdio-options.ts";
import { runAgent } from "../../../src/index.ts";
import { CONNECT_MCP_OPTIONS } from "../../../src/mcp/mcp-options.ts";
import { calls, says, scripted } from "../../support/agent.ts";
import { toolContext } from "../../support/tool-context.ts";
import { isRunning, SERVER_SCRIPT, testServer } from "./support/stdio-test-server.ts";

const open: McpStdioConnection[] = [];

/** Connects to the test server (closed after the test) or fails the test with the error. */
async function connect(...args: Parameters<typeof testServer>): Promise<McpStdioConnection> {
  const result = await connectMcpStdio(testServer(...args));
  if (!result.ok) throw result.error;
  open.push(result.value);
  return result.value;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

function tool(connection: McpStdioConnection, name: string) {
  const found = connection.tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

/** Calls a tool of the connection directly, as a run would. */
async function call(connection: McpStdioConnection, name: string, args: Record<string, unknown> = {}) {
  const execute = tool(connection, name).execute;
  if (execute === undefined) throw new Error(`${name} cannot be executed`);
  return execute(args as never, toolContext());
}

describe("connectMcpStdio against the official SDK's stdio server", () => {
  it("connects, lists the server's tools under the prefix, and calls one", async () => {
    const mcp = await connect();
    expect(mcp.tools.map((candidate) => candidate.name)).toContain("stdio_add");
    expect(mcp.serverInfo).toMatchObject({ name: "stdio-test" });
    expect(await call(mcp, "stdio_add", { a: 2, b: 3 })).toBe("5");
    expect(Number(await call(mcp, "stdio_pid"))).toBe(mcp.pid);
  });

  it("gives tools an agent run calls, with the scripted model", async () => {
    const mcp = await connect();
    const { options } = scripted([calls(["stdio_add", { a: 20, b: 22 }]), says("It is 42.")]);
    const result = await runAgent(options({ tools: mcp.tools }));
    expect(result.ok && result.value.text).toBe("It is 42.");
    expect(result.ok && result.value.toolCalls[0]?.result.output).toBe("42");
  });

  it("close() ends the process: its pid is gone when close resolves, and later calls are refused", async () => {
    const mcp = await connect();
    const pid = mcp.pid as number;
    expect(isRunning(pid)).toBe(true);
    await mcp.close();
    expect(isRunning(pid)).toBe(false);
    await expect(call(mcp, "stdio_add", { a: 1, b: 1 })).rejects.toMatchObject({
      _tag: "ConfigError",
      code: "SESSION_CLOSED",
    });
  });

  it("close({ endSession: false }) and `await using` end the process too (a stdio session cannot be resumed)", async () => {
    const first = await connect();
    await first.close({ endSession: false });
    expect(isRunning(first.pid as number)).toBe(false);
    let pid = 0;
    {
      await using second = await connect();
      pid = second.pid as number;
      expect(isRunning(pid)).toBe(true);
    }
    expect(isRunning(pid)).toBe(false);
  });

  it("an abort of the signal closes the connection and ends the process; a call waiting fails at once", async () => {
    const controller = new AbortController();
    const mcp = await connect([], { signal: controller.signal });
    const waiting = call(mcp, "stdio_sleep", { ms: 10_000 });
    const started = Date.now();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ _tag: "ConfigError", code: "SESSION_CLOSED" });
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect.poll(() => isRunning(mcp.pid as number)).toBe(false);
  });

  it("an abort while connecting is an AbortError, and the process it started is ended", async () => {
    const controller = new AbortController();
    const lines: string[] = [];
    const connecting = connectMcpStdio(
      testServer([], { signal: controller.signal, stderr: (line) => lines.push(line) }),
    );
    setTimeout(() => controller.abort(), 5);
    const result = await connecting;
    expect(result.ok || result.error._tag).toBe("AbortError");
    const pid = Number(/pid (\d+)/.exec(lines.join("\n"))?.[1]);
    if (pid > 0) expect(isRunning(pid)).toBe(false);
    const before = await connectMcpStdio(testServer([], { signal: AbortSignal.abort() }));
    expect(before.ok || before.error._tag).toBe("AbortError");
  });

  it("a server that crashes mid-call fails the call at once with a RequestError: exit code and stderr's tail", async () => {
    const mcp = await connect([], { timeoutMs: 30_000 });
    const started = Date.now();
    const error = await call(mcp, "stdio_crash", { code: 3 }).catch((thrown: unknown) => thrown);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({
      _tag: "RequestError",
      code: "NETWORK",
      retryable: false,
      provider: "mcp",
      details: { exitCode: 3, signal: null },
    });
    const message = (error as Error).message;
    expect(message).toContain("exited with code 3");
    expect(message).toContain("TypeError: Cannot read properties of undefined (reading 'rows')");
    expect(message).toContain(SERVER_SCRIPT);
    // Later calls fail the same way, without waiting.
    await expect(call(mcp, "stdio_add", { a: 1, b: 1 })).rejects.toMatchObject({ code: "NETWORK" });
  });

  it("a server that exits while starting fails connect with its exit code and stderr", async () => {
    const result = await connectMcpStdio(testServer(["--exit-at-start", "7"]));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ _tag: "RequestError", code: "NETWORK" });
    expect(result.error.message).toContain("exited with code 7");
    expect(result.error.message).toContain("Error: the database file is missing");
  });

  it("a command that does not exist is a ConfigError at `command` (ENOENT)", async () => {
    const result = await connectMcpStdio({
      command: "wisp-no-such-mcp-server",
      args: ["--token", "sk-secret"],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "command",
      causeCode: "ENOENT",
    });
    expect(result.error.message).toContain("wisp-no-such-mcp-server");
    expect(result.error.message).not.toContain("sk-secret");
    const missingCwd = await connectMcpStdio({ command: process.execPath, cwd: "/no/such/directory" });
    expect(missingCwd.ok || missingCwd.error.message).toContain("the cwd /no/such/directory does not exist");
  });

  it("a line on stdout that is not JSON-RPC fails the waiting call with a ParseError; the connection goes on", async () => {
    const mcp = await connect();
    await expect(call(mcp, "stdio_garbage")).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_MALFORMED",
      provider: "mcp",
      message: expect.stringContaining("not JSON: Listening on port 3000"),
    });
    expect(await call(mcp, "stdio_add", { a: 1, b: 2 })).toBe("3");
  });

  it("a line longer than 16 MiB is refused with a ParseError, and ends the connection and the process", async () => {
    const mcp = await connect();
    await expect(call(mcp, "stdio_flood")).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_MALFORMED",
      message: expect.stringContaining("a line longer than 16777216 characters"),
    });
    await expect.poll(() => isRunning(mcp.pid as number)).toBe(false);
    await expect(call(mcp, "stdio_add", { a: 1, b: 1 })).rejects.toMatchObject({ _tag: "ParseError" });
  });

  it("stderr: a function receives each line; 'ignore' leaves errors without a tail", async () => {
    const lines: string[] = [];
    const mcp = await connect([], { stderr: (line) => lines.push(line) });
    await call(mcp, "stdio_log");
    await expect.poll(() => lines).toContain("second log line");
    expect(lines).toContain("first log line");
    const quiet = await connect([], { stderr: "ignore" });
    const error = await call(quiet, "stdio_crash", { code: 4 }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toMatch(/exited with code 4$/);
  });

  it("hands what the server says unprompted to the client: a tool-list change reaches onToolsChanged", async () => {
    const changed: string[][] = [];
    const mcp = await connect([], {
      onToolsChanged: (tools) => changed.push(tools.map((t) => t.name)),
      onNotification: () => {
        throw new Error("a caller's callback that fails does not stop the reading");
      },
    });
    await call(mcp, "stdio_grow");
    await expect.poll(() => changed.at(-1) ?? []).toContain("stdio_extra");
    expect(mcp.tools.map((candidate) => candidate.name)).toContain("stdio_extra");
    expect(await call(mcp, "stdio_add", { a: 1, b: 1 })).toBe("2");
  });

  it("passes on only a safe few of this process's environment, and `env`; record() shows no secret", async () => {
    process.env.WISP_TEST_SECRET = "not-for-the-server";
    try {
      const mcp = await connect(["--api-key=sk-abcdefghijklmnopqrstuvwx"], {
        env: { NOTES_DIR: "/tmp/notes" },
      });
      const names = String(await call(mcp, "stdio_env")).split(",");
      expect(names).toContain("NOTES_DIR");
      expect(names).not.toContain("WISP_TEST_SECRET");
      for (const name of names)
        expect(["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "NOTES_DIR"]).toContain(name);
      const record = mcp.record();
      expect(record.url).toBe(`${process.execPath} ${SERVER_SCRIPT} --api-key=[redacted]`);
      expect(JSON.stringify(record)).not.toContain("/tmp/notes");
      expect(record.sessionId).toBeUndefined();
    } finally {
      delete process.env.WISP_TEST_SECRET;
    }
  });

  it("a server that ignores SIGTERM and the end of its stdin is killed (SIGKILL)", async () => {
    const mcp = await connect(["--stubborn"]);
    const started = Date.now();
    await mcp.close();
    expect(isRunning(mcp.pid as number)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
  }, 15_000);

  it("checks every option of an MCP session with connectMcp's own rules, and the process's options", () => {
    const http = ["url", "headers", "fetch", "auth", "resume", "listen"];
    const session = Object.keys(CONNECT_MCP_OPTIONS).filter((key) => !http.includes(key));
    expect(Object.keys(CONNECT_MCP_STDIO_OPTIONS)).toEqual([
      "command",
      "args",
      "env",
      "cwd",
      "stderr",
      ...session,
    ]);
    for (const key of session)
      expect(CONNECT_MCP_STDIO_OPTIONS[key as keyof typeof CONNECT_MCP_STDIO_OPTIONS], key).toBe(
        CONNECT_MCP_OPTIONS[key as keyof typeof CONNECT_MCP_OPTIONS],
      );
  });

  it("checks its options: unknown keys with the one meant, HTTP-only ones explained, bad values", async () => {
    const typo = await connectMcpStdio({ comand: "node" } as never);
    expect(typo.ok || [typo.error._tag, typo.error.message]).toEqual([
      "ConfigError",
      expect.stringMatching(/comand.*did you mean "command"/),
    ]);
    const resume = await connectMcpStdio({ ...testServer(), resume: {} } as never);
    expect(resume.ok || resume.error.message).toMatch(/^resume is for Streamable HTTP/);
    const stderr = await connectMcpStdio(testServer([], { stderr: "loud" as never }));
    expect(stderr.ok || stderr.error.path).toBe("stderr");
    const prefix = await connectMcpStdio(testServer([], { prefix: 3 as never }));
    expect(prefix.ok || prefix.error.path).toBe("prefix");
    const env = await connectMcpStdio(testServer([], { env: { TOKEN: 42 } as never }));
    expect(env.ok || [env.error.path, env.error.message.includes("42")]).toEqual(["env.TOKEN", false]);
  });
});

describe("connectMcpStdio when the server stops reading its stdin", () => {
  const big = "x".repeat(2 * 1024 * 1024); // far past a pipe's buffer: the write cannot finish

  it("a write the server does not read fails with TIMEOUT within timeoutMs; the connection ends, typed", async () => {
    // 2 s: the server's start (a Node process) must fit in it too, on a loaded machine.
    const mcp = await connect([], { timeoutMs: 2_000 });
    expect(await call(mcp, "stdio_echo", { text: "small" })).toBe("5");
    expect(await call(mcp, "stdio_deaf")).toBe("deaf");
    const error = await call(mcp, "stdio_echo", { text: big }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "RequestError", code: "TIMEOUT" });
    expect((error as Error).message).toContain("2000 ms");
    // Half a line is in the pipe: the stream cannot carry another message, so later calls fail at once
    // (NETWORK, not a TIMEOUT after waiting).
    const next = await call(mcp, "stdio_echo", { text: "small" }).catch((thrown: unknown) => thrown);
    expect(next).toMatchObject({ _tag: "RequestError", code: "NETWORK", retryable: false, provider: "mcp" });
    expect((next as Error).message).toContain("stopped reading its stdin");
    await expect.poll(() => isRunning(mcp.pid as number), { timeout: 6_000 }).toBe(false);
  }, 15_000);

  it("an abort while the write is blocked is an AbortError, at once", async () => {
    const mcp = await connect([], { timeoutMs: 30_000 });
    expect(await call(mcp, "stdio_deaf")).toBe("deaf");
    const controller = new AbortController();
    const execute = tool(mcp, "stdio_echo").execute;
    const waiting = execute?.({ text: big } as never, toolContext(controller.signal));
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await expect(waiting).rejects.toMatchObject({ _tag: "AbortError" });
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(call(mcp, "stdio_add", { a: 1, b: 1 })).rejects.toMatchObject({ code: "NETWORK" });
  }, 15_000);
});

describe("connectMcpStdio keeps secrets out of its errors", () => {
  const SECRET = "sk-live-supersecret";

  it("refuses NUL in env keys and values and in args, at the right path, never showing the value", async () => {
    const cases: Array<[Partial<Parameters<typeof testServer>[1]>, string]> = [
      [{ env: { API_KEY: `${SECRET}\u0000` } }, "env.API_KEY"],
      [{ env: { [`API\u0000${SECRET}`]: "value" } }, "env"],
      [{ args: ["--api-key", `${SECRET}\u0000`] }, "args.1"],
    ];
    for (const [options, path] of cases) {
      const result = await connectMcpStdio({ ...testServer(), ...options });
      expect(result.ok, path).toBe(false);
      if (result.ok) continue;
      expect(result.error, path).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
      expect(result.error.message, path).toContain("NUL");
      expect(JSON.stringify(result.error.toJSON()), path).not.toContain("supersecret");
      expect(result.error.stack ?? "", path).not.toContain("supersecret");
    }
  });

  it("a start the runtime refuses does not carry the runtime's message, only its code", async () => {
    const { startFailure } = await import("../../../runtime/mcp-stdio/stdio-failures.ts");
    const thrown = Object.assign(
      new TypeError(
        `The argument 'options.env['API_KEY']' must be a string without null bytes. Received '${SECRET}\\x00'`,
      ),
      { code: "ERR_INVALID_ARG_VALUE" },
    );
    const error = startFailure(
      thrown,
      { method: "stdio", url: "node server.mjs" },
      { command: "node", cwd: undefined },
    );
    expect(error).toMatchObject({ _tag: "ConfigError", causeCode: "ERR_INVALID_ARG_VALUE" });
    expect(error.message).toContain("ERR_INVALID_ARG_VALUE");
    expect(JSON.stringify(error.toJSON())).not.toContain("supersecret");
    expect(error.toJSON().cause).toMatchObject({ name: "TypeError", code: "ERR_INVALID_ARG_VALUE" });
    const other = startFailure(
      Object.assign(new Error(`spawn failed: ${SECRET}`), { code: "EAGAIN" }),
      { method: "stdio", url: "node server.mjs" },
      { command: "node", cwd: undefined },
    );
    expect(other).toMatchObject({ _tag: "RequestError", code: "NETWORK", causeCode: "EAGAIN" });
    expect(JSON.stringify(other.toJSON())).not.toContain("supersecret");
  });

  it("redacts stderr's tail: the values of `env` and provider keys a server logs stay out of errors", async () => {
    const mcp = await connect([], { env: { SERVICE_TOKEN: "plain-service-token-4711" } });
    const error = await call(mcp, "stdio_leak").catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "RequestError", code: "NETWORK", details: { exitCode: 2 } });
    const shown = JSON.stringify({
      message: (error as Error).message,
      json: (error as { toJSON(): unknown }).toJSON(),
    });
    expect(shown).toContain("connecting with [redacted]");
    expect(shown).toContain("Authorization failed for key [redacted]");
    expect(shown).not.toContain("plain-service-token-4711");
    expect(shown).not.toContain("sk-live-abcdefghijklmnopqrstuvwx");
  });
});
