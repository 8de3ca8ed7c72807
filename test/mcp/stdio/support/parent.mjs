/**
 * A parent that connects to the stdio test server through the built package, prints the server's pid,
 * and then ends without closing the connection: `exit` calls `process.exit(0)`, `throw` dies of an
 * uncaught error, `wait` waits to be killed. Arguments after the second go to the server (`--stubborn`:
 * only SIGKILL ends it). The test then checks the server did not outlive it.
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { connectMcpStdio } from "wisp-agent/mcp/stdio";

const [node = "node", how = "exit", ...flags] = process.argv.slice(2);
const script = fileURLToPath(new URL("stdio-server.mjs", import.meta.url));
const mcp = await connectMcpStdio({ command: node, args: [script, ...flags] });
if (!mcp.ok) throw mcp.error;
console.log(`server pid ${mcp.value.pid}`);
if (how === "exit") process.exit(0);
if (how === "throw") throw new Error("the parent fails");
setInterval(() => {}, 1_000);
