/**
 * The stdio scenario, the same in Node, Deno and Bun, through the built package (`wisp-agent/mcp/stdio`,
 * resolved by the package's own exports): it starts the test server (stdio-server.mjs) with the Node
 * given as the first argument, connects, calls a tool directly and from an agent run on the scripted
 * model, closes (the pid must be gone at once), aborts, meets a crash mid-call, a command that does not
 * exist and a line that is not JSON-RPC. It prints `ok   <check>` or `FAIL <check>: …` per check, then
 * one JSON line with every server pid it saw (the test checks none is left) and exits 1 if any failed.
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { runAgent } from "wisp-agent";
import { connectMcpStdio } from "wisp-agent/mcp/stdio";
import { createScriptedModel } from "wisp-agent/testing";

const node = process.argv[2] ?? "node";
const script = fileURLToPath(new URL("stdio-server.mjs", import.meta.url));
const server = (extra = {}) => ({ command: node, args: [script], prefix: "stdio_", ...extra });
const context = () => ({
  signal: new AbortController().signal,
  toolCallId: "c",
  sessionId: "s",
  turn: 1,
  messages: [],
});
const pids = [];
let failed = 0;

/** @param {number} pid */
const running = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** @param {string} what @param {() => Promise<true | string>} body */
async function check(what, body) {
  let outcome;
  try {
    outcome = await body();
  } catch (error) {
    outcome = `threw ${error?._tag ?? ""} ${error?.code ?? ""} ${error?.message ?? error}`;
  }
  if (outcome === true) console.log(`ok   ${what}`);
  else {
    failed++;
    console.log(`FAIL ${what}: ${outcome}`);
  }
}

/** @param {Record<string, unknown>} [extra] */
async function connect(extra) {
  const result = await connectMcpStdio(server(extra));
  if (!result.ok) throw result.error;
  pids.push(result.value.pid);
  return result.value;
}

const find = (mcp, name) => mcp.tools.find((tool) => tool.name === name);

await check("connects, lists tools, calls one, and close() leaves no process", async () => {
  const mcp = await connect();
  const names = mcp.tools.map((tool) => tool.name);
  if (!names.includes("stdio_add")) return `tools: ${names}`;
  const sum = await find(mcp, "stdio_add").execute({ a: 2, b: 3 }, context());
  if (sum !== "5") return `add gave ${sum}`;
  const pid = mcp.pid;
  if (!running(pid)) return `pid ${pid} is not running`;
  await mcp.close();
  return running(pid) ? `pid ${pid} still runs after close()` : true;
});

await check("an agent run on the scripted model calls the server's tool", async () => {
  const mcp = await connect();
  try {
    const model = createScriptedModel({
      script: [
        { content: [{ type: "tool_call", name: "stdio_add", args: { a: 20, b: 22 } }] },
        { content: [{ type: "text", text: "It is 42." }] },
      ],
    });
    const result = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "test",
      fetch: model.fetch,
      prompt: "20 + 22?",
      tools: mcp.tools,
    });
    if (!result.ok) return `run failed: ${result.error.message}`;
    const output = result.value.toolCalls[0]?.result.output;
    return output === "42" && result.value.text === "It is 42."
      ? true
      : `output ${output}, text ${result.value.text}`;
  } finally {
    await mcp.close();
  }
});

await check("an abort of the signal closes the connection and ends the process", async () => {
  const controller = new AbortController();
  const mcp = await connect({ signal: controller.signal });
  controller.abort();
  for (let waited = 0; waited < 5_000 && running(mcp.pid); waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return running(mcp.pid) ? `pid ${mcp.pid} still runs after the abort` : true;
});

await check(
  "a crash mid-call is a RequestError NETWORK at once, with the exit code and stderr's tail",
  async () => {
    const mcp = await connect({ timeoutMs: 30_000 });
    const started = Date.now();
    const error = await find(mcp, "stdio_crash")
      .execute({ code: 3 }, context())
      .then(
        () => undefined,
        (thrown) => thrown,
      );
    await mcp.close();
    const took = Date.now() - started;
    if (error?._tag !== "RequestError" || error.code !== "NETWORK")
      return `got ${error?._tag} ${error?.code}`;
    if (!error.message.includes("exited with code 3")) return error.message;
    if (!error.message.includes("TypeError: Cannot read properties")) return error.message;
    return took < 2_000 ? true : `took ${took} ms`;
  },
);

await check("a command that does not exist is a ConfigError at command (ENOENT)", async () => {
  const result = await connectMcpStdio({ command: "wisp-no-such-mcp-server" });
  if (result.ok) return "connected";
  const { _tag, path, causeCode } = result.error;
  return _tag === "ConfigError" && path === "command" && causeCode === "ENOENT"
    ? true
    : `${_tag} ${path} ${causeCode}: ${result.error.message}`;
});

await check("a line that is not JSON-RPC is a ParseError", async () => {
  const mcp = await connect();
  try {
    const error = await find(mcp, "stdio_garbage")
      .execute({}, context())
      .then(
        () => undefined,
        (thrown) => thrown,
      );
    return error?._tag === "ParseError" && error.code === "STREAM_MALFORMED" ? true : `got ${error?._tag}`;
  } finally {
    await mcp.close();
  }
});

console.log(JSON.stringify({ pids, failed }));
process.exit(failed === 0 ? 0 : 1);
