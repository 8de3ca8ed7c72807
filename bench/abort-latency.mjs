// Abort latency: from run.abort() to the run's result promise settling, with the run waiting on a
// stalled model stream (in-process and over loopback HTTP) or on a running tool.
import { defineTool, runAgentStream } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { serveScriptedModel } from "wisp-agent/testing/node";
import { median, quantile } from "./stats.mjs";

const RUNS = 100;
const STALLED = {
  content: [{ type: "text", text: ["first ", "never"] }],
  fault: { type: "stall", afterEvents: 4 },
};

const waitTool = defineTool({
  name: "wait",
  description: "",
  inputSchema: { type: "object" },
  execute: (_args, { signal }) =>
    new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
});

/** Starts a run, aborts it when `trigger` says so, and returns milliseconds from abort() to settling. */
async function once(options, trigger) {
  const run = runAgentStream(options);
  let abortedAt = 0;
  let settledAt = 0;
  const settled = run.result.then(() => {
    settledAt = performance.now();
  });
  for await (const event of run) {
    if (abortedAt === 0 && trigger(event)) {
      abortedAt = performance.now();
      run.abort();
    }
  }
  await settled;
  const result = await run.result;
  if (result.ok || result.error.code !== "ABORTED") throw new Error("the run did not end aborted");
  return settledAt - abortedAt;
}

async function measure(makeOptions, trigger) {
  const samples = [];
  for (let index = 0; index < RUNS + 5; index++) {
    const ms = await once(makeOptions(), trigger);
    if (index >= 5) samples.push(ms);
  }
  return { median: median(samples), p95: quantile(samples, 0.95), max: Math.max(...samples) };
}

/** Measures abort latency and returns the report section. */
export async function abortLatencySection() {
  const model = createScriptedModel({ respond: () => STALLED });
  const server = await serveScriptedModel(createScriptedModel({ respond: () => STALLED }));
  const toolModel = createScriptedModel({
    respond: () => ({ content: [{ type: "tool_call", name: "wait", args: {} }] }),
  });
  const base = { model: "anthropic/claude-sonnet-4-5", apiKey: "k", prompt: "go" };
  const firstDelta = (event) => event.type === "text-delta";
  const rows = [
    ["mid-stream, in-process fetch", await measure(() => ({ ...base, fetch: model.fetch }), firstDelta)],
    ["mid-stream, loopback HTTP", await measure(() => ({ ...base, baseURL: server.url }), firstDelta)],
    [
      "during a tool call",
      await measure(
        () => ({ ...base, fetch: toolModel.fetch, tools: [waitTool] }),
        (event) => event.type === "tool-start",
      ),
    ],
  ];
  await server.close();
  const table = rows
    .map(([name, r]) => `| ${name} | ${r.median.toFixed(3)} | ${r.p95.toFixed(3)} | ${r.max.toFixed(3)} |`)
    .join("\n");
  return `## Abort latency: run.abort() to the result settling

${RUNS} runs per case after 5 warm-ups; each run is aborted while it waits on a stalled stream or a
running tool, and must end with code ABORTED. Target: under 5 ms median.

| waiting on | median ms | p95 ms | max ms |
|---|---:|---:|---:|
${table}
`;
}
