/**
 * A real MCP server over stdio for the tests: the official TypeScript SDK's McpServer behind its
 * StdioServerTransport. Its tools add, tell its pid and its environment's names, sleep, write a line
 * that is not JSON-RPC or one past every bound, crash mid-call (stderr first), log to stderr, log
 * secrets to stderr and exit, echo a text, stop reading stdin, and change the tool list. Flags:
 * `--exit-at-start <code>` writes to stderr and exits before reading anything; `--stubborn` ignores
 * SIGTERM and the end of its stdin (only SIGKILL ends it). Plain JavaScript, so every runtime can
 * start it without a build.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const argv = process.argv.slice(2);
const exitAt = argv.indexOf("--exit-at-start");
if (exitAt !== -1) {
  process.stderr.write("starting the notes server\nError: the database file is missing\n");
  process.exit(Number(argv[exitAt + 1] ?? 1));
}
if (argv.includes("--stubborn")) {
  process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
  setInterval(() => {}, 1_000);
}

const server = new McpServer({ name: "stdio-test", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: String(value) }] });

server.registerTool(
  "add",
  { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => text(a + b),
);
server.registerTool("pid", { description: "This server's process id" }, async () => text(process.pid));
server.registerTool("env", { description: "The names of this server's environment variables" }, async () =>
  text(Object.keys(process.env).sort().join(",")),
);
server.registerTool(
  "sleep",
  { description: "Waits ms milliseconds", inputSchema: { ms: z.number().int().min(0) } },
  async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return text(`slept ${ms} ms`);
  },
);
server.registerTool("garbage", { description: "Writes a line that is not JSON-RPC" }, async () => {
  process.stdout.write("Listening on port 3000 (a log line on the wrong stream)\n");
  await new Promise((resolve) => setTimeout(resolve, 300));
  return text("answered late");
});
server.registerTool(
  "crash",
  { description: "Crashes mid-call", inputSchema: { code: z.number().int() } },
  async ({ code }) => {
    process.stderr.write("handling crash\nTypeError: Cannot read properties of undefined (reading 'rows')\n");
    setTimeout(() => process.exit(code), 20);
    return new Promise(() => {}); // never answers
  },
);
server.registerTool("flood", { description: "Writes a line longer than any bound" }, async () => {
  const piece = "x".repeat(1024 * 1024);
  for (let index = 0; index < 17; index++) {
    if (!process.stdout.write(piece)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
  return new Promise(() => {}); // the line never ends
});
server.registerTool("log", { description: "Writes lines to stderr" }, async () => {
  process.stderr.write("first log line\nsecond log line\n");
  return text("logged");
});
server.registerTool(
  "leak",
  { description: "Logs secrets to stderr (an env value, a provider key), then exits" },
  async () => {
    process.stderr.write(`connecting with ${process.env.SERVICE_TOKEN}\n`);
    process.stderr.write("Authorization failed for key sk-live-abcdefghijklmnopqrstuvwx\n");
    setTimeout(() => process.exit(2), 20);
    return new Promise(() => {}); // never answers
  },
);
server.registerTool(
  "echo",
  { description: "Answers with the length of its text", inputSchema: { text: z.string() } },
  async ({ text: value }) => text(value.length),
);
server.registerTool("deaf", { description: "Stops reading stdin (it fills up)" }, async () => {
  process.stdin.pause();
  setInterval(() => {}, 1_000); // a paused stdin no longer keeps the process alive
  return text("deaf");
});
server.registerTool("grow", { description: "Adds a tool (the list changes)" }, async () => {
  server.registerTool("extra", { description: "Added later" }, async () => text("extra"));
  return text("grown");
});

await server.connect(new StdioServerTransport());
process.stderr.write(`stdio-test server ready (pid ${process.pid})\n`);
