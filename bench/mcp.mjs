// MCP (wisp-agent/mcp): the round trip of one `tools/call` against the official TypeScript SDK's
// server on 127.0.0.1 (stateful; answering as SSE, its default, and as JSON), through a Wisp tool
// (argument check against the input schema, then `execute`) and as the bare HTTP exchange — one
// hand-written fetch POST of the same JSON-RPC request with the same headers, its answer read and
// parsed — so the difference is what Wisp's client adds. Calls alternate between the two, one at a
// time, after a warm-up.
import { connectMcp } from "wisp-agent/mcp";
import { startOfficialServer } from "../test/mcp/support/official-server.mjs";
import { toolContext } from "../test/support/tool-context.ts";
import { median, quantile } from "./stats.mjs";

const CALLS = 400;
const WARM_UP = 50;

/** One bare exchange: POST, read the whole answer, parse its JSON-RPC message. */
async function rawCall(url, headers, id) {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "add", arguments: { a: id, b: 1 } },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : text.slice(text.indexOf("data: ") + 6).split("\n")[0];
  const message = JSON.parse(data);
  if (message.result?.content?.[0]?.text !== String(id + 1))
    throw new Error(`raw call ${id} answered ${data}`);
}

async function measure(json) {
  const server = await startOfficialServer({ json });
  try {
    const connected = await connectMcp({ url: server.url, listen: false });
    if (!connected.ok) throw connected.error;
    const mcp = connected.value;
    const add = mcp.tools.find((tool) => tool.name === "add");
    const record = mcp.record();
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": record.sessionId,
      "mcp-protocol-version": record.protocolVersion,
    };
    const context = toolContext();
    const wisp = [];
    const raw = [];
    for (let n = 0; n < WARM_UP + CALLS; n++) {
      let started = performance.now();
      const parsed = await add.parseArgs({ a: n, b: 1 });
      const output = await add.execute(parsed.args, context);
      const wispMs = performance.now() - started;
      if (output !== String(n + 1)) throw new Error(`call ${n} answered ${output}`);
      started = performance.now();
      await rawCall(server.url, headers, 1_000_000 + n);
      const rawMs = performance.now() - started;
      if (n >= WARM_UP) {
        wisp.push(wispMs);
        raw.push(rawMs);
      }
    }
    await mcp.close();
    return { wisp, raw };
  } finally {
    await server.close();
  }
}

const row = (label, values) =>
  `| ${label} | ${median(values).toFixed(3)} | ${quantile(values, 0.25).toFixed(3)}–${quantile(values, 0.75).toFixed(3)} | ${quantile(values, 0.99).toFixed(3)} |`;

/** Measures MCP tool calls and returns the report section. */
export async function mcpSection() {
  const sse = await measure(false);
  const json = await measure(true);
  const overhead = (run) => median(run.wisp) - median(run.raw);
  return `## MCP: one tools/call round trip

\`tools/call\` of the official MCP TypeScript SDK server's \`add\` tool (stateful session, Node's
\`http\` behind its \`StreamableHTTPServerTransport\`, on 127.0.0.1), ${CALLS} calls one at a time after
${WARM_UP} warm-up calls, alternating between a Wisp tool from \`connectMcp\` (\`parseArgs\` — the input
schema check — then \`execute\`) and the bare HTTP exchange (one \`fetch\` POST of the same JSON-RPC
request with the same session headers, its answer read whole and parsed). Milliseconds.

| answer as | median | p25–p75 | p99 |
|---|---:|---:|---:|
${row("SSE (the server's default), Wisp tool", sse.wisp)}
${row("SSE, bare exchange", sse.raw)}
${row("JSON (`enableJsonResponse`), Wisp tool", json.wisp)}
${row("JSON, bare exchange", json.raw)}

What Wisp adds beyond the HTTP exchange (difference of medians): **${overhead(sse).toFixed(3)} ms** with SSE
answers, **${overhead(json).toFixed(3)} ms** with JSON answers — the schema check, the request's
timeout and abort wiring, the SSE parser and the result mapping.
`;
}
